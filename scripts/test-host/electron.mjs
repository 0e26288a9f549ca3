#!/usr/bin/env node
// The same integration suite in a desktop VS Code downloaded by @vscode/test-electron.
// Needs internet access to Microsoft's update server and a display (or xvfb-run), so it
// cannot run on the CI machines; `npm run test:integration` (code-server) is the CI path.
// Usage: node scripts/test-host/electron.mjs [--env KEY=VALUE]...   (build first: node esbuild.mjs)
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runTests } from '@vscode/test-electron';
import { REPO_ROOT } from './paths.mjs';

const { values } = parseArgs({ options: { env: { type: 'string', multiple: true } } });
const extensionTestsEnv = {};
for (const kv of values.env ?? []) {
  const i = kv.indexOf('=');
  if (i <= 0) { console.error(`--env expects KEY=VALUE, got "${kv}"`); process.exit(2); }
  extensionTestsEnv[kv.slice(0, i)] = kv.slice(i + 1);
}

try {
  await runTests({
    extensionDevelopmentPath: REPO_ROOT,
    extensionTestsPath: join(REPO_ROOT, 'out', 'test', 'integration', 'index.js'),
    extensionTestsEnv,
    launchArgs: ['--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
} catch (e) {
  console.error(`integration suite failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
