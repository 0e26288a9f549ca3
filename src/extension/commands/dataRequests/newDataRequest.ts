// New Data Request…: from the palette, the view's title bar, or a selection of a ticket's text (its
// e-mails, PlatformIds and the other identifiers the core finds in it are offered, each to confirm
// in a multi-select pick; more can be typed as kind:value). Then what was asked, the received date
// (default today) and the ticket reference. Every configured title is searched when the request
// runs (the titles without a key are skipped and named).
import * as vscode from 'vscode';
import { ASKS, createRequest, extractIdentifiers, identifierLabel, parseIdentifiers, ticketContext, type Ask, type DataRequest, type Identifier } from '../../../core/requests';
import { dateProblem, daysLeft, isOverdue } from '../../../core/requests/model';
import { CommandError } from '../../errors';
import { clip } from '../../dataRequests/view';
import { selectedText } from '../../editor/selection';
import { readSettings } from '../../settings';
import { stringMember } from '../parse';
import type { CommandContext } from '../context';
import { requestAuth } from './stepServices';
import { defineCommand } from '../define';

const MAX_TICKET_CHARS = 200_000;

const ASK_LABELS: Record<Ask, () => { label: string; detail: string }> = {
  access: () => ({ label: vscode.l10n.t('Access'), detail: vscode.l10n.t('A copy of the person\'s data: ExportMasterPlayerData for each master account') }),
  erasure: () => ({ label: vscode.l10n.t('Erasure'), detail: vscode.l10n.t('Delete each master account (DeleteMasterPlayerAccount, after its export when both are asked)') }),
  events: () => ({ label: vscode.l10n.t('Events-only erasure'), detail: vscode.l10n.t('Delete the accounts\' events and keep the accounts (DeleteMasterPlayerEventData)') }),
};

/** A ticket-like reference in the text (SUPPORT-1234), offered as the default. */
function referenceIn(text: string): string | undefined {
  return /\b[A-Z][A-Z0-9]{1,15}-\d{1,10}\b/.exec(text)?.[0];
}

/** kind:value entries typed by hand, comma-separated or one per line. */
function typedIdentifiers(value: string): Identifier[] {
  return parseIdentifiers(value.split(/[,\n]/).join('\n'));
}

async function askIdentifiers(c: CommandContext, text: string): Promise<Identifier[]> {
  const found = text ? extractIdentifiers(text.slice(0, MAX_TICKET_CHARS)) : [];
  const typeIn = (): Promise<string> => c.ui.input({
    title: vscode.l10n.t('Identifiers of the person'),
    prompt: vscode.l10n.t('kind:value, separated by commas. Kinds: platformid, email, username, displayname, storefront, consolelive'),
    placeHolder: 'email:ana@example.com, storefront:ana_k',
    validateInput: (v) => {
      try {
        typedIdentifiers(v);
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    },
  });
  if (found.length === 0) return typedIdentifiers(await typeIn());
  const MORE = vscode.l10n.t('Add identifiers by hand…');
  // Each with the line it was found on; checked only where the ticket says it is the person's own.
  const items = [
    ...found.map((x) => {
      const where = ticketContext(text, x.index);
      const why = where.requester === 'from' ? vscode.l10n.t('the From line') : where.requester === 'first person' ? vscode.l10n.t('the person writes it is theirs') : undefined;
      return {
        label: clip(identifierLabel(x), 100),
        description: why ? vscode.l10n.t('line {0} · {1}', where.line, why) : vscode.l10n.t('line {0}', where.line),
        detail: clip(where.text, 160),
        picked: where.requester !== undefined,
        identifier: x as Identifier | undefined,
      };
    }),
    { label: MORE, description: vscode.l10n.t('kind:value, e.g. storefront:ana_k'), picked: false, identifier: undefined, alwaysShow: true },
  ];
  const checked = items.filter((i) => i.picked).length;
  const picked = await c.ui.pickMany(items, {
    title: vscode.l10n.t('Identifiers found in the ticket: check the person\'s own'),
    placeHolder: checked === 0
      ? vscode.l10n.t('{0} found, none checked: the ticket does not say which are the person\'s. Check theirs; each shows its line.', found.length)
      : vscode.l10n.t('{0} of {1} checked (on the From line or where the person writes about themselves); check only the person\'s own.', checked, found.length),
    ignoreFocusOut: true,
  });
  const chosen = picked.flatMap((p) => (p.identifier ? [{ kind: p.identifier.kind, value: p.identifier.value, ...(p.identifier.sandbox ? { sandbox: p.identifier.sandbox } : {}) }] : []));
  if (picked.some((p) => p.label === MORE)) chosen.push(...typedIdentifiers(await typeIn()));
  if (chosen.length === 0) throw new CommandError(vscode.l10n.t('No identifier was kept, so there is nobody to look for.'), vscode.l10n.t('Run New Data Request… again and keep at least one, or add one by hand (kind:value).'));
  return chosen;
}

/** What New Data Request is started with: the identifiers' text when given as `{ text }` (a test, a task); else the editor's selection is read. */
export interface NewRequestArgs {
  readonly text?: string;
}

export const parseNewRequestArgs = (raw: readonly unknown[]): NewRequestArgs => ({ text: stringMember(raw[0], 'text') });

export async function newDataRequest(c: CommandContext, given: NewRequestArgs): Promise<DataRequest> {
  const s = c.services;
  const titles = s.titles.all();
  if (titles.length === 0) {
    throw new CommandError(vscode.l10n.t('No Platform title is configured, so there is nowhere to look for the person.'), vscode.l10n.t('Add your titles with their keys (or start the local emulator), then create the request.'),
      { label: vscode.l10n.t('Add Title'), command: 'platformExplorer.addTitle' });
  }
  // The folder is checked before any question: a bad setting is said before the user types.
  const store = await s.dataRequests.store(requestAuth(s));
  const editor = vscode.window.activeTextEditor;
  const text = given.text ?? (editor ? selectedText(editor) : '');
  const identifiers = await askIdentifiers(c, text);

  const asks = (await c.ui.pickMany(ASKS.map((a) => ({ ...ASK_LABELS[a](), ask: a })), {
    title: vscode.l10n.t('What did the person ask for?'),
  })).map((p) => p.ask);
  if (asks.length === 0) throw new CommandError(vscode.l10n.t('Nothing was asked for.'), vscode.l10n.t('Pick access, erasure or events-only erasure (any mix).'));

  const dueDays = s.dataRequests.dueDays();
  const today = new Date().toISOString().slice(0, 10);
  const received = (await c.ui.input({
    title: vscode.l10n.t('Date the request was received'),
    prompt: vscode.l10n.t('YYYY-MM-DD; due {0} days later (setting platformExplorer.dataRequests.dueDays)', dueDays),
    value: today,
    validateInput: (v) => dateProblem(v.trim()) ?? (v.trim() > today ? vscode.l10n.t('The date is in the future: enter the day the request arrived.') : undefined),
  })).trim();

  const reference = (await c.ui.input({
    title: vscode.l10n.t('Ticket reference'),
    prompt: vscode.l10n.t('The ticket this request answers; kept with the request and sent as MetaData with each erasure'),
    value: referenceIn(text),
    placeHolder: vscode.l10n.t('e.g. PRIVACY-1234'),
    validateInput: (v) => (v.trim().length === 0 ? vscode.l10n.t('Enter the ticket reference (1 to 200 characters).') : v.length > 200 ? vscode.l10n.t('Keep the reference under 200 characters.') : undefined),
  })).trim();

  // One template, as the command line's --endpoint: the titles' own when they share one (the emulator's), else the service's.
  const endpoints = [...new Set(titles.map((t) => s.clients.endpointFor(t)))];
  const request = await createRequest(store, {
    reference, asks, identifiers, titles: titles.map((t) => t.titleId), endpoint: endpoints.length === 1 ? endpoints[0] : readSettings().serviceEndpoint, received, dueDays, holdDays: s.dataRequests.holdDays(),
    displayNamesNotUnique: s.dataRequests.displayNamesNotUnique(titles.map((t) => t.titleId)),
  });
  s.log.info(`Data request ${request.id} created: ${identifiers.length} identifiers, asks ${asks.join(', ')}, due ${request.due}`);
  s.dataRequests.refresh();
  const RUN = vscode.l10n.t('Run (Dry Run First)');
  const late = -daysLeft(request);
  const due = isOverdue(request)
    ? vscode.l10n.t('due {0}: already overdue by {1}', request.due, late === 1 ? vscode.l10n.t('1 day') : vscode.l10n.t('{0} days', late))
    : vscode.l10n.t('due {0}', request.due);
  void c.ui.optional.info(
    vscode.l10n.t('Data request {0} created for {1}, {2}. Run it to find the person\'s accounts in {3}; a dry run shows them before anything is sent.',
      clip(reference), identifiers.length === 1 ? vscode.l10n.t('1 identifier') : vscode.l10n.t('{0} identifiers', identifiers.length), due,
      titles.length === 1 ? vscode.l10n.t('1 title') : vscode.l10n.t('{0} titles', titles.length)),
    RUN,
  ).then((action) => (action === RUN ? vscode.commands.executeCommand('platformExplorer.runDataRequest', { id: request.id }) : undefined));
  return request;
}

export const newDataRequestCommand = defineCommand({
  id: 'platformExplorer.newDataRequest',
  title: 'New Data Request…',
  category: true,
  icon: 'add',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.dataRequests', group: 'navigation@1' },
    ],
    'editor/context': [
      { when: 'editorHasSelection', group: 'platformExplorer@8' },
    ],
  },
  lazy: 'requests',
  parse: parseNewRequestArgs,
  handler: newDataRequest,
});
