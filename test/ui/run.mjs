#!/usr/bin/env node
// npm run test:ui: every UI suite in turn (each starts and stops its own VS Code), then one
// closing line with the totals. Exit code 1 when any step of any suite failed.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// vsix last: packaging leaves the production bundles in dist/.
const SUITES = ['session.ui.mjs', 'workbench.ui.mjs', 'demo.ui.mjs', 'emulatorRequests.ui.mjs', 'dataRequests.ui.mjs', 'walkthrough.ui.mjs', 'vsix.ui.mjs'];

let child;
for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.on(sig, () => {
    // The suite cleans up on the same signal; wait for it, then leave.
    if (child && child.exitCode === null) child.once('exit', () => process.exit(code));
    else process.exit(code);
  });
}

let passed = 0;
let failed = 0;
for (const suite of SUITES) {
  const code = await new Promise((resolve) => {
    child = spawn(process.execPath, [join(here, suite)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let last = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      last = (last + d).slice(-2000);
    });
    child.once('exit', (c) => {
      const m = [...last.matchAll(/^(\d+) passed, (\d+) failed/gm)].pop();
      if (m) { passed += Number(m[1]); failed += Number(m[2]); } else failed++;
      resolve(c);
    });
  });
  if (code !== 0 && failed === 0) failed++;
}
console.log(`\nUI tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
