// The active title: the one last picked in this workspace; before any pick, the first one
// configured. Commands act on it without asking; the status bar shows it and the picker puts it first.
import * as vscode from 'vscode';
import { Disposable } from './lifecycle';
import type { TitleRecord, TitleStore } from './titles';

const LAST_TITLE_KEY = 'platformExplorer.lastTitleId';

export class ActiveTitle extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento, private readonly titles: TitleStore) {
    super();
  }

  /** The title ID last picked in this workspace (it may have been removed since). */
  lastPicked(): string | undefined {
    return this.memento.get<string>(LAST_TITLE_KEY);
  }

  async setPicked(titleId: string): Promise<void> {
    await this.memento.update(LAST_TITLE_KEY, titleId.toUpperCase());
    this.changed.fire();
  }

  /** None only when no title is configured, or the one last picked was removed (then commands ask). */
  current(): TitleRecord | undefined {
    const all = this.titles.all();
    if (all.length === 1) {
      return all[0];
    }
    const last = this.lastPicked();
    return last === undefined ? all[0] : all.find((t) => t.titleId === last);
  }
}
