// "Nothing in flight": a count of the client's work running now (its calls, each call's HTTP
// attempts and waits between retries, a bulk lookup's scheduling, the shared token fetch), and a
// promise that resolves when it drops to zero. Used to close a replaced client once its work is
// done, and by tests to assert that nothing more was sent without a fixed sleep.

export class IdleTracker {
  private busy = 0;
  private waiters: (() => void)[] = [];

  /** Counts one piece of work as running until its leave(). */
  enter(): void {
    this.busy++;
  }

  leave(): void {
    if (--this.busy === 0) this.waiters.splice(0).forEach((resolve) => resolve());
  }

  /** Resolves once nothing is running: at once when nothing is, else when the last piece leaves. */
  whenIdle(): Promise<void> {
    return this.busy === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}
