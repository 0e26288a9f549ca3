// `npm run demo` (scripts/demo/demo.mjs) starts the emulator as its own process and hands its
// endpoint and demo keys to the extension host in a file named by PLATFORM_EXPLORER_DEMO_FILE,
// so a new user sees a populated tree without typing keys:
//   {"endpoint": "http://127.0.0.1:PORT/{titleId}", "controlToken": "...", "titles": [{"titleId": "F71AC", "secretKey": "..."}]}
// (the control token lets the Emulator Requests view and Test Launcher Login call its controls).
// A file, not an environment variable every terminal inherits: it must be ours, a regular file
// readable by us only (0600), and is deleted once read. Only a loopback endpoint is accepted,
// so a stray file or variable cannot send a key anywhere else.
import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { validateTitleId } from '../core/ids';
import { describeFailure } from './errors';
import { validateSecretKey } from './secrets';
import type { Services } from './services';
import { DEMO_ENV } from './settings';
import { validateEmulatorEndpoint } from './titles';
import { rememberControlToken } from '../core/controlToken';

const MAX_DEMO_FILE_BYTES = 64 * 1024;

/** The hand-over file's text, deleted once read; or why it was refused. */
function takeDemoFile(path: string): { text: string } | { problem: string } {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return { problem: `${DEMO_ENV} names no readable file.` };
  }
  if (!st.isFile()) return { problem: `${DEMO_ENV} must name a regular file (not a link or folder).` };
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return { problem: `${DEMO_ENV} names a file of another user.` };
  if ((st.mode & 0o077) !== 0) return { problem: `${DEMO_ENV} names a file others can read or write; it must be mode 0600.` };
  if (st.size > MAX_DEMO_FILE_BYTES) return { problem: `${DEMO_ENV} names a file larger than ${MAX_DEMO_FILE_BYTES} bytes.` };
  try {
    return { text: readFileSync(path, 'utf8') };
  } catch {
    return { problem: `${DEMO_ENV} names no readable file.` };
  } finally {
    rmSync(path, { force: true });
  }
}

interface DemoTitle { titleId: string; secretKey: string }

// eslint-disable-next-line complexity -- one check per member of the emulator's --json line
function parse(raw: string): { endpoint: string; controlToken?: string; titles: DemoTitle[] } | string {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return `The ${DEMO_ENV} file is not JSON.`;
  }
  const o = v as { endpoint?: unknown; controlToken?: unknown; titles?: unknown };
  if (typeof o?.endpoint !== 'string') return `The ${DEMO_ENV} file's endpoint must be the emulator's endpoint template.`;
  const endpointProblem = validateEmulatorEndpoint(o.endpoint);
  if (endpointProblem) return `The ${DEMO_ENV} file's endpoint: ${endpointProblem}`;
  if (o.controlToken !== undefined && (typeof o.controlToken !== 'string' || !/^[\x21-\x7e]{16,256}$/.test(o.controlToken))) {
    return `The ${DEMO_ENV} file's controlToken is not the emulator's control token.`;
  }
  if (!Array.isArray(o.titles)) return `The ${DEMO_ENV} file's titles must be a list of {titleId, secretKey}.`;
  const titles: DemoTitle[] = [];
  for (const [i, t] of o.titles.entries()) {
    const { titleId, secretKey } = (t ?? {}) as { titleId?: unknown; secretKey?: unknown };
    // The key is never quoted back: only which member is wrong.
    if (typeof titleId !== 'string' || validateTitleId(titleId)) return `The ${DEMO_ENV} file's titles[${i}].titleId is not a title ID.`;
    if (typeof secretKey !== 'string' || validateSecretKey(secretKey)) return `The ${DEMO_ENV} file's titles[${i}].secretKey is not a usable key.`;
    titles.push({ titleId: titleId.toUpperCase(), secretKey });
  }
  return { endpoint: o.endpoint, ...(o.controlToken === undefined ? {} : { controlToken: o.controlToken }), titles };
}

/** Adds the demo emulator's titles with their keys from the hand-over file; problems go to the log, never a throw. */
export async function seedDemoTitles(s: Services, file: string): Promise<void> {
  try {
    const taken = takeDemoFile(file);
    const demo = 'problem' in taken ? taken.problem : parse(taken.text);
    if (typeof demo === 'string') {
      s.log.warn(`Demo setup skipped: ${demo}`);
      return;
    }
    if (demo.controlToken !== undefined) rememberControlToken(new URL(demo.endpoint.replace('{titleId}', 'x')).origin, demo.controlToken);
    // The seed's display names, loaded only on this development-only path.
    const { DEMO_TITLES } = await import('../emulator/seed');
    for (const t of demo.titles) {
      const existing = s.titles.get(t.titleId);
      if (existing && existing.endpointProfile !== 'emulator') {
        s.log.warn(`Demo setup: ${t.titleId} is configured for the Platform service; left as it is.`);
        continue;
      }
      const name = existing?.name ?? DEMO_TITLES.find((d) => d.titleId === t.titleId)?.name ?? t.titleId;
      await s.titles.upsert({ titleId: t.titleId, name, endpointProfile: 'emulator', emulatorEndpoint: demo.endpoint });
      await s.secrets.set(t.titleId, t.secretKey);
    }
    s.log.info(`Demo setup: ${demo.titles.map((t) => t.titleId).join(', ')} on the emulator at ${demo.endpoint}.`);
  } catch (e) {
    s.log.warn(`Demo setup failed: ${describeFailure(e, s.secrets.known()).message}`);
  }
}
