// `npm run demo` (scripts/demo.mjs) starts the emulator as its own process and hands its
// endpoint and demo keys to the extension host in PLATFORM_EXPLORER_DEMO, so a new user
// sees a populated tree without typing keys:
//   {"endpoint": "http://127.0.0.1:PORT/{titleId}", "titles": [{"titleId": "F71AC", "secretKey": "..."}]}
// Read only in development mode (activate() checks), never from settings, and only for a
// loopback endpoint: a stray environment variable cannot send a key anywhere else.
import { validateTitleId } from '../core/ids';
import { describeFailure } from './errors';
import { validateSecretKey } from './secrets';
import type { Services } from './services';
import { validateEmulatorEndpoint } from './titles';

export const DEMO_ENV = 'PLATFORM_EXPLORER_DEMO';

interface DemoTitle { titleId: string; secretKey: string }

function parse(raw: string): { endpoint: string; titles: DemoTitle[] } | string {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return `${DEMO_ENV} is not JSON.`;
  }
  const o = v as { endpoint?: unknown; titles?: unknown };
  if (typeof o?.endpoint !== 'string') return `${DEMO_ENV}.endpoint must be the emulator's endpoint template.`;
  const endpointProblem = validateEmulatorEndpoint(o.endpoint);
  if (endpointProblem) return `${DEMO_ENV}.endpoint: ${endpointProblem}`;
  if (!Array.isArray(o.titles)) return `${DEMO_ENV}.titles must be a list of {titleId, secretKey}.`;
  const titles: DemoTitle[] = [];
  for (const [i, t] of o.titles.entries()) {
    const { titleId, secretKey } = (t ?? {}) as { titleId?: unknown; secretKey?: unknown };
    // The key is never quoted back: only which member is wrong.
    if (typeof titleId !== 'string' || validateTitleId(titleId)) return `${DEMO_ENV}.titles[${i}].titleId is not a title ID.`;
    if (typeof secretKey !== 'string' || validateSecretKey(secretKey)) return `${DEMO_ENV}.titles[${i}].secretKey is not a usable key.`;
    titles.push({ titleId: titleId.toUpperCase(), secretKey });
  }
  return { endpoint: o.endpoint, titles };
}

/** Adds the demo emulator's titles with their keys; problems go to the log, never a throw. */
export async function seedDemoTitles(s: Services, raw: string): Promise<void> {
  try {
    const demo = parse(raw);
    if (typeof demo === 'string') {
      s.log.warn(`Demo setup skipped: ${demo}`);
      return;
    }
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
      await s.clients.forget(t.titleId);
    }
    s.log.info(`Demo setup: ${demo.titles.map((t) => t.titleId).join(', ')} on the emulator at ${demo.endpoint}.`);
  } catch (e) {
    s.log.warn(`Demo setup failed: ${describeFailure(e, s.secrets.known()).message}`);
  }
}
