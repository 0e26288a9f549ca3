// The HandheldStore panel: the add-on configuration as tables, with a refresh button.
// Load failures are shown in the panel itself.
import * as vscode from 'vscode';
import type { HandheldStoreConfig } from '../../core/api/types';
import type { PageToHost } from '../../webview/protocol';
import { noteFailure } from '../activity/recorder';
import { handheldStoreMessage } from './handheldStoreView';
import { BasePanel, type PanelHost } from './panel';

export interface ShowHandheldStoreArgs {
  titleId: string;
  titleName: string;
  load: () => Promise<HandheldStoreConfig>;
}

class HandheldStorePanel extends BasePanel {
  private args: ShowHandheldStoreArgs;
  /** Only the latest load may draw: an older one finishing late is dropped. */
  private loadSeq = 0;

  /** Resolves when the first load has been drawn (or its failure shown). */
  static async show(host: PanelHost, args: ShowHandheldStoreArgs): Promise<void> {
    const open = BasePanel.existing('handheldStore', args.titleId);
    if (open instanceof HandheldStorePanel) {
      open.args = args;
      open.reveal();
      await open.load();
      return;
    }
    await new HandheldStorePanel(host, args).load();
  }

  private constructor(host: PanelHost, args: ShowHandheldStoreArgs) {
    super(host, 'handheldStore', args.titleId, vscode.l10n.t('HandheldStore: {0}', args.titleName));
    this.args = args;
  }

  /** Never rejects: a failure becomes the panel's error text, and the running command's failure in Activity. */
  private async load(): Promise<void> {
    const seq = ++this.loadSeq;
    const { titleId, titleName } = this.args;
    try {
      const config = await this.args.load();
      if (seq === this.loadSeq && !this.disposed) this.render(handheldStoreMessage({ titleId, titleName, config }));
    } catch (e) {
      noteFailure(e);
      if (seq === this.loadSeq && !this.disposed) this.showError(e);
    }
  }

  protected override async onPageMessage(msg: Exclude<PageToHost, { type: 'ready' }>): Promise<void> {
    if (msg.type === 'refresh') await this.load();
  }
}

/** Opens (or reveals and reloads) the HandheldStore panel of a title; resolves once it has loaded or shown its failure. */
export function showHandheldStore(host: PanelHost, args: ShowHandheldStoreArgs): Promise<void> {
  return HandheldStorePanel.show(host, args);
}
