// A command as its own file declares it: `export const xCommand = defineCommand(id, handler, operations)`.
// `node scripts/check-commands.mjs --write` lists every such declaration in ./all.ts (generated;
// the check fails while it is out of date), and registerCommands registers them: adding a command
// writes no registration line. A handler loaded on first use (../lazy) is registered in ./index.ts,
// never declared in a file of a lazy bundle (that would load the bundle at activation).
import type { OperationName } from '../../core/api/operations';
import type { CommandId } from '../commandIds';
import type { CommandContext } from './context';

export type CommandHandler = (c: CommandContext, ...args: unknown[]) => unknown;

export interface CommandDefinition {
  readonly id: CommandId;
  readonly handler: CommandHandler;
  /** What it sends, when it talks to the service: Activity's name for its runs; re-run offered only if all read. */
  readonly operations?: readonly OperationName[];
}

export function defineCommand(id: CommandId, handler: CommandHandler, operations?: readonly OperationName[]): CommandDefinition {
  return { id, handler, operations };
}
