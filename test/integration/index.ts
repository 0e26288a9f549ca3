// Entry the extension host loads as extensionTestsPath: runs every out/test/integration/**/*.test.js
// with mocha inside the real VS Code (code-server via scripts/test-host/run.mjs, or test-electron).
// MOCHA_GREP (set with `run.mjs --grep`) narrows the run to matching test titles.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

function findTests(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) found.push(...findTests(p));
    else if (name.endsWith('.test.js')) found.push(p);
  }
  return found;
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  const grep = process.env.MOCHA_GREP;
  if (grep) mocha.grep(grep);
  const files = findTests(__dirname);
  if (files.length === 0) throw new Error(`no *.test.js files under ${__dirname}: build with \`node esbuild.mjs\``);
  for (const f of files) mocha.addFile(f);
  let ran = 0;
  const failures = await new Promise<number>((resolve) => {
    mocha.run(resolve).on('test end', () => { ran++; });
  });
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
  // A run that executed nothing (e.g. a --grep that matches no title) must not pass silently.
  if (ran === 0) throw new Error(grep ? `no integration test matches "${grep}"` : 'no integration tests ran');
}
