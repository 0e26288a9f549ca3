// The local emulator running inside this extension host (Start/Stop Local Emulator).
// The emulator module is loaded on first start only.
import type { EmulatorHandle } from '../emulator/server';
import { CONTROL_TOKEN_ENV, forgetControlToken, rememberControlToken } from '../core/controlToken';

export class EmulatorHost {
  private handle: EmulatorHandle | undefined;
  /** The start in progress: a second start while the first awaits joins it instead of starting another server. */
  private starting: Promise<EmulatorHandle> | undefined;

  /**
   * `forTests`: the seed's documented keys (the test runner types them), and deletions that
   * complete only when a test moves the emulator's clock (a loaded machine must not complete
   * them while a test still expects them queued); otherwise random keys and 5 s deletions.
   */
  constructor(private readonly forTests = false) {}

  get current(): EmulatorHandle | undefined {
    return this.handle;
  }

  start(log: (line: string) => void): Promise<EmulatorHandle> {
    if (this.handle) {
      return Promise.resolve(this.handle);
    }
    this.starting ??= (async () => {
      try {
        const { startEmulator } = await import('../emulator/server');
        this.handle = await startEmulator({
          host: '127.0.0.1', port: 0, seed: 'demo', fixedKeys: this.forTests, deletionDelayMs: this.forTests ? 3_600_000 : undefined, log,
          // Fixed by the environment when set (a script beside the editor), else random for this run.
          controlToken: process.env[CONTROL_TOKEN_ENV] || undefined,
        });
        // The Emulator Requests view, Test Launcher Login and the data requests' event reader send it.
        rememberControlToken(this.handle.origin, this.handle.controlToken);
        return this.handle;
      } finally {
        this.starting = undefined;
      }
    })();
    return this.starting;
  }

  async stop(): Promise<boolean> {
    // A start in progress finishes first, so its server is the one stopped (never leaked).
    await this.starting?.catch(() => undefined);
    const h = this.handle;
    this.handle = undefined;
    if (!h) {
      return false;
    }
    forgetControlToken(h.origin);
    await h.close();
    return true;
  }
}
