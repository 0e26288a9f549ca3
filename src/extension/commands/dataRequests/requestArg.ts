// Which request a Data Requests command acts on, read once at its entry: a node of the view (a
// request, one of its accounts or actions), `{ id }` or the id itself (tests, links), else the
// user's pick among the requests the command can act on.
import * as vscode from 'vscode';
import type { RequestStore } from '../../../core/requests';
import { requestState, type DataRequest } from '../../../core/requests';
import { CommandError } from '../../errors';
import { clip, dueText, RequestTreeNode, stateWord } from '../../dataRequests/view';
import type { CommandContext } from '../context';
import { requestAuth } from './stepServices';

function idOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof RequestTreeNode) return (arg as RequestTreeNode & { requestId?: string }).requestId;
  if (typeof arg === 'object' && arg !== null) {
    const id = (arg as Record<string, unknown>).id ?? (arg as Record<string, unknown>).requestId;
    return typeof id === 'string' ? id : undefined;
  }
  return undefined;
}

/** The request a command names: its id (from a node, `{ id }`, `{ requestId }` or the id itself), else none (picked); the node, when run from one. */
export interface RequestArgs {
  readonly requestId?: string;
  readonly node?: RequestTreeNode;
}

/** A node of the Data Requests view, `{ id }` or the id (tests, links), nothing or null (picked); anything else is refused. */
export function parseRequestArgs(raw: readonly unknown[]): RequestArgs {
  const [arg] = raw;
  const requestId = idOf(arg);
  if (requestId === undefined && arg !== undefined && arg !== null) {
    throw new CommandError(vscode.l10n.t('This command acts on a data request.'), vscode.l10n.t('Run it from a request\'s menu in the Data Requests view, or from the Command Palette to pick one.'));
  }
  return { requestId, node: arg instanceof RequestTreeNode ? arg : undefined };
}

export async function resolveRequest(
  c: CommandContext, a: RequestArgs, o: { title: string; can: (r: DataRequest) => boolean; none: string },
): Promise<{ store: RequestStore; request: DataRequest }> {
  const s = c.services;
  const store = await s.dataRequests.store(requestAuth(s));
  if (a.requestId !== undefined) return { store, request: await store.load(a.requestId) };
  const { requests } = await s.dataRequests.list();
  const candidates = requests.filter(o.can);
  if (candidates.length === 0) throw new CommandError(o.none);
  const picked = await c.ui.pick(candidates.map((r) => ({
    label: clip(r.reference), description: `${stateWord(requestState(r))} · ${dueText(r)}`, detail: r.id, request: r,
  })), { title: o.title, matchOnDescription: true, matchOnDetail: true });
  return { store, request: picked.request };
}
