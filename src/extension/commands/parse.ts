// Command arguments, parsed once at registration (a declaration's `parse`, ./define.ts): each shape
// a command is invoked with becomes one typed value, so handlers never read `unknown`:
//  - the palette: nothing;
//  - a node of a view's menu: the node, with the selection VS Code passes beside it;
//  - the view's keybindings (F2, Delete, Ctrl+C: `{ "$treeViewId", "$focusedTreeItem": true }`,
//    which VS Code turns into the focused node, or null when none has focus);
//  - an editor's context menu: the document's Uri (the command reads the editor itself);
//  - a hover link, a task's input, a test: a plain JSON object such as `{ titleId, platformId }`.
import * as vscode from 'vscode';
import { CommandError } from '../errors';
import { isTreeNode, type TreeNode } from '../tree/nodes';

/** What the first argument (and the selection beside it) says about where the command acts. */
export interface Target {
  /** Named by `{ titleId }` (a link, JSON, a test) or carried by the node. */
  readonly titleId?: string;
  /** The clicked or focused node of a view. */
  readonly node?: TreeNode;
  /** The selection VS Code passed with the node, when the node is part of it. */
  readonly selection?: readonly TreeNode[];
  /** VS Code passed a second argument (so the view's own selection is not read instead). */
  readonly selectionGiven: boolean;
  /** From the view's keybinding: 'none' (nothing has focus), 'unresolved' (the focused node not passed: read the view's selection). */
  readonly keybinding?: 'none' | 'unresolved';
  /** Started from an editor (its context menu passes the document's Uri). */
  readonly fromEditor: boolean;
}

export function member(arg: unknown, name: string): unknown {
  return typeof arg === 'object' && arg !== null ? (arg as Record<string, unknown>)[name] : undefined;
}

/** A member given as a non-empty string (trimmed), else undefined. */
export function stringMember(arg: unknown, name: string): string | undefined {
  const v = member(arg, name);
  return typeof v === 'string' && v.trim().length > 0 ? v.trim() : undefined;
}

/** A member given as a list of strings (trimmed, blanks dropped); refused when not one, or empty. */
export function stringListMember(arg: unknown, name: string): string[] | undefined {
  const v = member(arg, name);
  if (v === undefined) {
    return undefined;
  }
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    throw new CommandError(vscode.l10n.t('The "{0}" argument must be a list of strings.', name));
  }
  const list = (v as string[]).map((x) => x.trim()).filter((x) => x.length > 0);
  // Given but empty is no reason to read the editor instead.
  if (list.length === 0) {
    throw new CommandError(vscode.l10n.t('The "{0}" argument is an empty list.', name), vscode.l10n.t('Pass at least one entry, or no "{0}" to be asked.', name));
  }
  return list;
}

const isUri = (v: unknown): boolean => v instanceof vscode.Uri || (typeof member(v, 'scheme') === 'string' && typeof member(v, 'path') === 'string' && typeof member(v, 'fsPath') === 'string');

/** The Target of `[arg, selection]` as VS Code, a link or a test passes them. */
export function parseTarget(raw: readonly unknown[]): Target {
  const [arg, selection] = raw;
  const node = isTreeNode(arg) ? arg : undefined;
  const sel = node && Array.isArray(selection) && selection.length > 0 && selection.every(isTreeNode) && selection.includes(node) ? [...selection] : undefined;
  return {
    titleId: stringMember(arg, 'titleId'),
    node,
    selection: sel,
    selectionGiven: selection !== undefined,
    keybinding: arg === null ? 'none' : member(arg, '$focusedTreeItem') === true && !node ? 'unresolved' : undefined,
    fromEditor: isUri(arg),
  };
}

/**
 * For a command the view's menus run (no link or JSON form): a node of the view, or nothing (then
 * the command asks). Anything else (JSON from a task's input, a link or a keybinding) is refused.
 */
export function parseNodeOnly(raw: readonly unknown[]): Target {
  const [arg] = raw;
  if (arg !== undefined && !isTreeNode(arg)) {
    throw new CommandError(vscode.l10n.t('This command acts on an item of the Platform view.'), vscode.l10n.t('Run it from the item\'s menu in the Platform view.'));
  }
  return parseTarget(raw);
}

/** The Target of the Titles view's selection, for an "…InView" variant: the one selected node, else nothing. */
export function viewTarget(viewSelection: readonly TreeNode[]): Target {
  const node = viewSelection.length === 1 ? viewSelection[0] : undefined;
  return { titleId: stringMember(node, 'titleId'), node, selectionGiven: false, fromEditor: false };
}

/** A filter command's text: given as a string (a test, a task), kept as it is; anything else: asked. */
export interface FilterArgs {
  readonly text?: string;
}

export function parseFilterArgs(raw: readonly unknown[]): FilterArgs {
  return { text: typeof raw[0] === 'string' ? raw[0] : undefined };
}
