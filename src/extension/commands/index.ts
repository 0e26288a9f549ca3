// Every command of the extension, registered through one wrapper with the operations it sends
// (Activity's names and re-runnable set derive from them and the table): each file's own
// declaration (./define.ts; listed in ./all.ts, generated), its "…InView" variant when it has
// one, and a lazy one's handler loaded with its bundle (../lazy) when the command first runs.
// The few a view registers itself (declareCommand) are in that view's file.
import type { Services } from '../services';
import { isTreeNode } from '../tree/nodes';
import { DECLARED_COMMANDS } from './all';
import type { AnyCommandDefinition, Invocation, LazyCommand } from './define';
import { registerCommand } from './registerCommand';
import type { CommandId } from '../commandIds';
import type { CommandContext } from './context';

type Declared = (typeof DECLARED_COMMANDS)[number];

/** The declaration's handler with its own parse in front: the handler sees only what parse returned. */
function run(d: Declared, inView: boolean): (c: CommandContext, ...raw: unknown[]) => Promise<unknown> {
  let loaded: AnyCommandDefinition | undefined = 'load' in d ? undefined : d;
  return async (c, ...raw) => {
    loaded ??= await (d as LazyCommand).load();
    const at: Invocation = { inView, viewSelection: inView ? (c.services.tree.view?.selection ?? []).filter(isTreeNode) : [] };
    return loaded.handler(c, loaded.parse(raw, at));
  };
}

export function registerCommands(s: Services): void {
  for (const d of DECLARED_COMMANDS) {
    registerCommand(s, d.id, run(d, false), d.operations);
    if (d.inView) registerCommand(s, `${d.id}InView` as CommandId, run(d, true), d.operations);
  }
}
