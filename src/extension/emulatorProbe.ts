// Whether an emulator already serves the titles of the emulator profile (e.g. the one
// `npm run demo` starts as its own process): then Start Local Emulator is not offered, so it
// cannot re-point those titles at a second emulator with other data.
import { ContextKeys, setContext } from './contextKeys';
import type { TitleStore } from './titles';

const PROBE_TIMEOUT_MS = 1500;

export class EmulatorProbe {
  private last: Promise<string | undefined> = Promise.resolve(undefined);

  constructor(private readonly titles: TitleStore) {}

  /** The origin of an emulator that answers for an emulator-profile title, if any; sets the context key. */
  refresh(): Promise<string | undefined> {
    this.last = this.probe().then(async (origin) => {
      await setContext(ContextKeys.emulatorServing, origin !== undefined);
      return origin;
    });
    return this.last;
  }

  private async probe(): Promise<string | undefined> {
    const origins = [...new Set(this.titles.all().flatMap((t) =>
      t.endpointProfile === 'emulator' && t.emulatorEndpoint ? [new URL(t.emulatorEndpoint.replace('{titleId}', t.titleId)).origin] : []))];
    const answers = await Promise.all(origins.map(async (origin) => {
      try {
        // ready needs no control token: any emulator of ours answers it.
        const res = await fetch(`${origin}/_emulator/ready`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        await res.body?.cancel();
        return res.ok ? origin : undefined;
      } catch {
        return undefined;
      }
    }));
    return answers.find((o) => o !== undefined);
  }
}
