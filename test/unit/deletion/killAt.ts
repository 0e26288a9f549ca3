// Preloaded into a CLI run (node --require out/test/unit/deletion/killAt.js) to kill it with
// SIGKILL at an exact step of a batch, which a kill at a random time rarely hits. PE_KILL_AT:
//   anchor-write:N  during the Nth anchor write: its temp file is on disk, not yet renamed into place
//   before-send:N   once the Nth intent is on disk (journal line and anchor), before its request goes out
// It wraps fs.promises.rename, which the bundled CLI calls through the module object.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The module object itself (an import would bind a copy of its members).
const fsp = createRequire(__filename)('node:fs/promises') as typeof import('node:fs/promises');

const [mode, nth] = (process.env.PE_KILL_AT ?? '').split(':');
const target = Number(nth);
const rename = fsp.rename;
let writes = 0;
let intents = 0;

/** True when the journal an anchor names ends, at the anchored line, with an intent. */
function anchorsIntent(anchorPath: string): boolean {
  const a = JSON.parse(readFileSync(anchorPath, 'utf8')) as { lines: number; path: string };
  const line = readFileSync(a.path, 'utf8').split('\n')[a.lines - 1] ?? '';
  return line.startsWith('{"type":"intent"');
}

fsp.rename = async (from, to) => {
  const anchor = /[\\/]anchors[\\/][^\\/]+\.json$/.test(String(to));
  if (anchor) {
    writes++;
    if (mode === 'anchor-write' && writes === target) process.kill(process.pid, 'SIGKILL');
  }
  await rename(from, to);
  if (anchor && mode === 'before-send' && anchorsIntent(String(to))) {
    intents++;
    if (intents === target) process.kill(process.pid, 'SIGKILL');
  }
};
