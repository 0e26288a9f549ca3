// What commands make of their parsed arguments (./parse.ts): the nodes and titles a Target names,
// and the title a command may send its key for.
import type { CommandId } from '../commandIds';
import * as vscode from 'vscode';
import type { PlatformClient } from '../../core/api/client';
import { validateTitleId } from '../../core/ids';
import type { TitleRecord } from '../titles';
import type { TreeNode } from '../tree/nodes';
import { TitleNode } from '../tree/titleNodes';
import { CommandError } from '../errors';
import type { CommandContext } from './context';
import type { Target } from './parse';

/**
 * The view's nodes a command acts on, as VS Code's Explorer does: from a menu, the clicked node
 * with the rest of the selection when it is part of it (VS Code then passes both); from the
 * view's keybindings (F2, Delete: `{ "$treeViewId", "$focusedTreeItem": true }`, which VS Code
 * turns into the focused node), the focused node, with the selection when the focused node is in
 * it: never a selection the focus has moved away from. Otherwise none (the command asks).
 */
export function targetNodes(c: CommandContext, t: Target): TreeNode[] {
  const viewSelection = c.services.tree.view?.selection ?? [];
  if (t.node) {
    if (t.selection) return [...t.selection];
    return !t.selectionGiven && viewSelection.length > 1 && viewSelection.includes(t.node) ? [...viewSelection] : [t.node];
  }
  // A VS Code that did not resolve the focused node passes the keybinding's own object.
  if (t.keybinding === 'unresolved') return [...viewSelection];
  return [];
}

/**
 * The titles a command acts on: the selected title nodes (several from a multi-selection), else
 * the title the argument names, the only one or the user's pick. From a keybinding with no title
 * selected: none.
 */
export async function resolveTitles(c: CommandContext, t: Target): Promise<TitleRecord[]> {
  const nodes = targetNodes(c, t).filter((n): n is TitleNode => n instanceof TitleNode);
  if (nodes.length > 0) return nodes.map((n) => c.services.titles.get(n.titleId)).filter((x): x is TitleRecord => x !== undefined);
  // From a key on an item that is not a title (a job, an add-on): nothing to act on.
  if (t.keybinding !== undefined || t.node) return [];
  return [await resolveTitle(c, t)];
}

/**
 * The title a command acts on: the one named by the argument (a title's node, or any node under
 * it), else the active title (the status bar's), else the user's pick, which becomes active.
 */
export async function resolveTitle(c: CommandContext, t: Target): Promise<TitleRecord> {
  const s = c.services;
  const named = t.titleId;
  if (named) {
    const t = s.titles.get(named);
    if (!t) {
      // An argument can come from a link: never quote a malformed one raw (line breaks, bidi characters).
      const problem = validateTitleId(named);
      if (problem) {
        throw new CommandError(problem, vscode.l10n.t('Pass the hex title ID of a configured title.'));
      }
      throw new CommandError(vscode.l10n.t('Title {0} is not configured.', named), vscode.l10n.t('Add it with "Platform: Add Title", or pick a configured title.'),
        { label: vscode.l10n.t('Add Title'), command: 'platformExplorer.addTitle' satisfies CommandId });
    }
    return t;
  }
  const all = s.titles.all();
  if (all.length === 0) {
    throw new CommandError(vscode.l10n.t('No title is configured yet.'), vscode.l10n.t('Add one with "Platform: Add Title" or "Platform: Start Local Emulator".'),
      { label: vscode.l10n.t('Add Title'), command: 'platformExplorer.addTitle' satisfies CommandId });
  }
  // The status bar's title; asked only when none is active.
  return s.activeTitle.current() ?? pickTitle(c);
}

/** The user's pick among the configured titles (the active one first); it becomes the active title. */
export async function pickTitle(c: CommandContext): Promise<TitleRecord> {
  const s = c.services;
  const last = s.activeTitle.lastPicked();
  const ordered = [...s.titles.all()].sort((a, b) => Number(b.titleId === last) - Number(a.titleId === last));
  const picked = await c.ui.pick(
    ordered.map((t) => ({
      label: t.name,
      description: t.titleId,
      detail: [t.endpointProfile === 'emulator' && vscode.l10n.t('local emulator'), t.production && vscode.l10n.t('production')].filter(Boolean).join(' · ') || undefined,
      title: t,
    })),
    // Said for what it is: the pick sets the title every command runs for (the status bar's title).
    { title: vscode.l10n.t('Which title?'), placeHolder: vscode.l10n.t('Commands run for this title until you pick another; the status bar shows it') },
  );
  await s.activeTitle.setPicked(picked.title.titleId);
  return picked.title;
}

/**
 * The title a command acts on and a client that may send its key: called before the command's
 * first question, so a missing key, an untrusted workspace or the placeholder endpoint stop it
 * before the user types anything.
 */
export async function usableTitle(c: CommandContext, t: Target): Promise<{ title: TitleRecord; client: PlatformClient }> {
  const title = await resolveTitle(c, t);
  const client = await c.services.clients.following(title.titleId);
  if (!(await c.services.secrets.has(title.titleId))) {
    throw new CommandError(
      vscode.l10n.t('No secret key is set for {0} ({1}).', title.name, title.titleId),
      vscode.l10n.t('Set it with "Platform: Set Secret Key" (from the title\'s management portal), then run the command again.'),
      { label: vscode.l10n.t('Set Secret Key'), command: 'platformExplorer.setSecretKey' satisfies CommandId, args: [{ titleId: title.titleId }] },
    );
  }
  return { title, client };
}
