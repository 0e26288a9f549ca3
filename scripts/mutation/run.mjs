#!/usr/bin/env node
// npm run test:mutation [-- STRYKER ARGS]: StrykerJS over src/core and the emulator's rate limit
// and jobs (stryker.config.mjs), then the score per folder. Niced, one test runner: the machine is
// shared. Incremental: a re-run tests only mutants whose code or tests changed; Ctrl+C keeps
// what was tested so far, and the next run goes on from there.
// Stryker is not in the project's node_modules: the first run installs it, with the mocha and
// TypeScript it loads, into .vscode-test/mutation from the committed scripts/test-host/lock/mutation
// (scripts/test-host/install.mjs --mutation; again when that lockfile changes).
// Stryker 10 needs Node 22 or later; on an older Node it runs on the Node 24 that the test host
// uses (scripts/test-host/install.mjs --node installs it from the npm registry when missing).
// Narrow a run with e.g. `-- --mutate src/core/csv.ts --incrementalFile reports/mutation/csv.json`,
// and to the tests that reach those files with `-- --config FILE`: a config that spreads
// stryker.config.mjs and lists fewer spec files (a shorter dry run; never a higher score).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE24_BIN, STRYKER_BIN } from '../test-host/paths.mjs';
import { formatSummary, summarise } from './summary.mjs';
import { ensureMutationTools } from './tools.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
process.chdir(ROOT);

function nodeForStryker() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  if (!existsSync(NODE24_BIN)) {
    const r = spawnSync(process.execPath, ['scripts/test-host/install.mjs', '--node'], { stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  return NODE24_BIN;
}

ensureMutationTools();
const args = process.argv.slice(2);
const configAt = args.indexOf('--config');
const config = configAt >= 0 ? args.splice(configAt, 2)[1] : 'stryker.config.mjs';
const stryker = [
  nodeForStryker(), '--require', './scripts/mutation/mocha-cjs.cjs', STRYKER_BIN, 'run', config, ...args,
];
const started = Date.now();
const child = spawn('nice', ['-n', '10', ...stryker], { stdio: 'inherit' });
// Ctrl+C reaches Stryker too (same process group); wait for it to save what it tested.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => {
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  // A finished run writes the full report; an interrupted one only the incremental file.
  const at = args.indexOf('--incrementalFile');
  const report = code === 0 ? 'reports/mutation/mutation.json' : at >= 0 ? args[at + 1] : 'reports/mutation/stryker-incremental.json';
  if (existsSync(report)) console.log(`\nMutation score per folder (${report}; this run took ${minutes} min):\n${formatSummary(summarise(report))}`);
  process.exit(code ?? 1);
});
