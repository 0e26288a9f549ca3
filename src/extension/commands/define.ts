// One declaration per command, in the command's own file:
//   export const xCommand = defineCommand({ id, title, menus…, parse, handler })
// `node scripts/check-commands.mjs --write` reads these declarations (their literal members, not by
// running them) and generates package.json's contributes.commands, .menus and .keybindings,
// package.nls.json's command titles, ../commandIds.ts and ./all.ts; `npm run lint` fails while any
// of them is out of date. `inView` generates the "…InView" variant (the palette entry shown while
// the Titles view has focus, acting on its selection), `lazy` names the bundle (../lazy) the
// command loads on first use: the file is then exported from that bundle, never imported by main.
import type { OperationName } from '../../core/api/operations';
import type { CommandId } from '../commandIds';
import type { TreeNode } from '../tree/nodes';
import type { CommandContext } from './context';

export type CommandHandler = (c: CommandContext, ...args: unknown[]) => unknown;

export type MenuLocation = 'view/title' | 'view/item/context' | 'editor/context' | 'explorer/context';
export interface MenuEntry {
  readonly when?: string;
  readonly group: string;
}
export interface KeybindingEntry {
  readonly key: string;
  readonly mac?: string;
  readonly when: string;
  readonly args?: Readonly<Record<string, unknown>>;
}
/** The bundles of esbuild.mjs's LAZY_BUNDLES that hold commands. */
export type LazyBundle = 'deletion' | 'panels' | 'emulator-commands' | 'requests' | 'lookups';

/** What package.json says of a command: literals only (the generator reads them without running the file). */
export interface CommandManifest {
  readonly id: CommandId;
  /** English title (package.nls.json `command.<name>.title`), never "Platform: …" (the generator refuses it): menus show it as it is. */
  readonly title: string;
  /** Shown as "Platform: title" in the palette (only there: VS Code's menus show the title alone). */
  readonly category?: true;
  /** A codicon name, e.g. 'add' for $(add). */
  readonly icon?: string;
  /** The command palette's `when` ('false': hidden). */
  readonly palette?: string;
  /** Also an "<id>InView" palette entry while the Titles view has focus, acting on its selection. */
  readonly inView?: true;
  readonly menus?: Partial<Record<MenuLocation, readonly MenuEntry[]>>;
  readonly keybindings?: readonly KeybindingEntry[];
  /** Loaded on first use from this bundle (src/extension/lazy/<bundle>.ts exports the declaration). */
  readonly lazy?: LazyBundle;
  /** What it sends, when it talks to the service: Activity's name for its runs; re-run offered only if all read. */
  readonly operations?: readonly OperationName[];
}

/** How the command was started, besides its arguments. */
export interface Invocation {
  /** The "…InView" variant: from the palette while the Titles view has focus. */
  readonly inView: boolean;
  /** The Titles view's selection (read for the InView variant only; empty otherwise). */
  readonly viewSelection: readonly TreeNode[];
}

/**
 * A command: `parse` turns every shape it can be invoked with (nothing from the palette, a tree
 * node, several selected nodes, an editor's document, a hover link's or a test's JSON object) into
 * one typed value, or throws a CommandError naming the fix; the handler sees only that value.
 */
export interface CommandDefinition<A = unknown> extends CommandManifest {
  readonly parse: (raw: readonly unknown[], at: Invocation) => A;
  readonly handler: (c: CommandContext, args: A) => unknown;
}

/**
 * A declaration as registration holds it, whatever its argument type: registration hands each
 * handler what its own parse returned, so the pair stays consistent.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the pair (parse, handler) of one declaration agrees on A
export type AnyCommandDefinition = CommandDefinition<any>;

/** A declaration registered by hand (its handler needs a view's provider): registerCommand(s, id, …). */
export type CommandDeclaration = CommandManifest;

/** A lazy command as main knows it (./all.ts): its declaration is loaded with its bundle. */
export interface LazyCommand {
  readonly id: CommandId;
  readonly inView?: true;
  readonly operations?: readonly OperationName[];
  readonly load: () => Promise<AnyCommandDefinition>;
}

export function defineCommand<A>(d: CommandDefinition<A>): CommandDefinition<A> {
  return d;
}

/** Manifest only, for a command a view registers itself with registerCommand. */
export function declareCommand(d: CommandDeclaration): CommandDeclaration {
  return d;
}

/** The parse of a command that takes no arguments (whatever a menu or link passes is not read). */
export const noArguments = (): undefined => undefined;
