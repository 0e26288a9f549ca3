// One way to own resources: a class registers what it creates or subscribes to, and
// dispose() releases it all, newest first, exactly once (as vscode-pull-request-github's lifecycle.ts).
import type * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private isDisposed = false;

  protected get disposed(): boolean {
    return this.isDisposed;
  }

  /** Takes ownership of `d` (disposed at once if this is already disposed) and returns it. */
  protected _register<T extends vscode.Disposable>(d: T): T {
    if (this.isDisposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    // Reverse order: what was made last may depend on what was made first.
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposable must not keep the others alive.
      }
    }
  }
}
