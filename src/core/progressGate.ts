// How often progress is worth reporting: a progress notification is announced by screen readers
// each time its message changes, so it reports at the start, at every tenth of the work, at most
// every few seconds otherwise, at the end, and when its state changes (waiting, retrying).

/** Milliseconds between reports when less than a tenth of the work was done. */
const PROGRESS_EVERY_MS = 3000;

export class ProgressGate {
  // Stryker disable next-line UnaryOperator: the first call reports through lastState (undefined until then) whatever lastDone starts at
  private lastDone = -1;
  private lastAt = 0;
  private lastState: string | undefined;

  constructor(private readonly now: () => number = Date.now, private readonly everyMs = PROGRESS_EVERY_MS) {}

  /** Whether `done` of `total` (in `state`, e.g. "waiting") should be reported now; records it when so. */
  // Stryker disable next-line StringLiteral: any fixed default is equivalent; it is only compared with the states of the same gate's calls
  due(done: number, total: number, state = ''): boolean {
    const at = this.now();
    const step = Math.max(1, Math.ceil(total / 10));
    const report = this.lastDone < 0
      || state !== this.lastState
      || (done !== this.lastDone && (done >= total || done - this.lastDone >= step || at - this.lastAt >= this.everyMs));
    if (report) {
      this.lastDone = done;
      this.lastAt = at;
      this.lastState = state;
    }
    return report;
  }
}
