// The status bar item of the active title: its name, and whether its requests go to a real
// service or to a local emulator (judged by the endpoint's host). Clicking it picks the title.
import type { CommandId } from './commandIds';
import * as vscode from 'vscode';
import { isLoopbackHost } from '../core/api/endpoint';
import { Disposable } from './lifecycle';
import type { ActiveTitle } from './activeTitle';
import type { Clients } from './clients';
import { onDidChangeSettings } from './settings';
import { named, type TitleStore } from './titles';

/** True when an endpoint template's host is this machine (a local emulator). */
function isLocalEndpoint(template: string): boolean {
  try {
    return isLoopbackHost(new URL(template.replace('{titleId}', 'F00D')).hostname.replace(/^\[(.*)\]$/, '$1'));
  } catch {
    return false;
  }
}

export class TitleStatusBar extends Disposable {
  readonly item = this._register(vscode.window.createStatusBarItem('platformExplorer.activeTitle', vscode.StatusBarAlignment.Left, 10));
  visible = false;

  constructor(private readonly active: ActiveTitle, private readonly titles: TitleStore, private readonly clients: Clients) {
    super();
    this.item.name = vscode.l10n.t('Platform Title');
    this.item.command = 'platformExplorer.pickTitle' satisfies CommandId;
    const update = (): void => this.update();
    for (const event of [active.onDidChange, titles.onDidChange, onDidChangeSettings]) this._register(event(update));
  }

  update(): void {
    // Nothing to show before the first title: the welcome view says what to do.
    this.visible = this.titles.all().length > 0;
    if (!this.visible) {
      this.item.hide();
      return;
    }
    this.item.show();
    const t = this.active.current();
    if (!t) {
      this.item.text = `$(cloud) ${vscode.l10n.t('Platform: pick a title')}`;
      this.item.tooltip = vscode.l10n.t('No active Platform title. Click to pick one.');
      this.item.backgroundColor = undefined;
      this.item.accessibilityInformation = undefined;
      return;
    }
    const endpoint = this.clients.endpointFor(t);
    const local = isLocalEndpoint(endpoint);
    // Production leads, so a narrow status bar that cuts the text still shows it.
    const marks = [
      ...(t.production ? [vscode.l10n.t('PRODUCTION')] : []),
      local ? vscode.l10n.t('local emulator') : vscode.l10n.t('real title'),
    ];
    const icon = t.production ? '$(shield)' : local ? '$(vm)' : '$(cloud)';
    this.item.text = t.production
      ? `${icon} ${marks[0]} · ${named(t)} · ${marks[1]}`
      : `${icon} ${named(t)} · ${marks[0]}`;
    this.item.tooltip = [
      vscode.l10n.t('Active Platform title: {0} ({1})', t.name, t.titleId),
      local
        ? vscode.l10n.t('Requests go to a local emulator: {0}', endpoint)
        : vscode.l10n.t('Requests go to the Platform service: {0}', endpoint),
      ...(t.production ? [vscode.l10n.t('Marked production: deletions also need the title ID typed.')] : []),
      vscode.l10n.t('Commands act on this title. Click to pick another title.'),
    ].join('\n');
    this.item.backgroundColor = t.production ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    // The name read out holds the visible words, title ID included (WCAG 2.5.3).
    this.item.accessibilityInformation = { label: vscode.l10n.t('Platform title {0} ({1}), {2}', t.name, t.titleId, marks.join(', ')) };
  }
}
