// Look Up PlatformIds from ConsoleLive IDs (with the Sandbox, default RETAIL).
import * as vscode from 'vscode';
import { DEFAULT_SANDBOX } from '../../core/api/types';
import type { CommandContext } from './context';
import { usableTitle } from './args';
import { gatherEntries, lookUpAndShow, parseLookupArgs, splitInvalid, type LookupArgs, type LookupSpec, type LookupSummary } from './lookup';
import { defineCommand } from './define';

// Built on use, so the texts come from the l10n bundle loaded at activation.
const spec = (): LookupSpec => ({
  kind: 'consolelive',
  what: vscode.l10n.t('ConsoleLive IDs'),
  one: vscode.l10n.t('ConsoleLive ID'),
  documentName: vscode.l10n.t('ConsoleLive lookup'),
  argName: 'ids',
  inputField: 'ConsoleLiveAccountId',
  placeHolder: vscode.l10n.t('e.g. {0}', '2533274800000000, 2533274800007919'),
});

function validateSandbox(v: string): string | undefined {
  if (v.trim().length === 0) {
    return vscode.l10n.t('Enter a Sandbox, e.g. {0}.', DEFAULT_SANDBOX);
  }
  return /^[A-Za-z0-9._-]{1,64}$/.test(v.trim())
    ? undefined
    : vscode.l10n.t('A Sandbox is letters, digits, dots, dashes or underscores (e.g. RETAIL or XDKS.1).');
}

export async function lookUpConsoleLiveIds(c: CommandContext, a: LookupArgs): Promise<LookupSummary> {
  const { title, client } = await usableTitle(c, a.target);
  const entries = splitInvalid(spec(), await gatherEntries(c, a, spec()));
  for (const row of entries.invalid) {
    // "RETAIL" typed or selected as an ID: the Sandbox is a question of its own.
    if (/^[A-Za-z]+(\.\d+)?$/.test(row.input)) row.invalid = `${row.invalid ?? ''} ${vscode.l10n.t('The Sandbox (e.g. {0}) is asked after the IDs.', DEFAULT_SANDBOX)}`;
  }
  // Nothing to send: no Sandbox question; the result and the message say why.
  if (entries.valid.length === 0) return lookUpAndShow(c, title, spec(), entries, () => Promise.resolve());
  const sandbox = (await c.ui.input({
    title: vscode.l10n.t('Sandbox'),
    prompt: vscode.l10n.t('The ConsoleLive sandbox of these IDs (case-sensitive)'),
    value: a.sandbox ?? DEFAULT_SANDBOX,
    validateInput: validateSandbox,
  })).trim();
  return lookUpAndShow(c, title, spec(), entries, (opts) => client.getPlatformIdsFromConsoleLiveIds(entries.valid, sandbox, opts), { sandbox });
}

export const lookUpConsoleLiveIdsCommand = defineCommand({
  id: 'platformExplorer.lookUpConsoleLiveIds',
  title: 'Look Up PlatformIds from ConsoleLive IDs',
  category: true,
  icon: 'search',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bkeySet\\b/', group: '1_lookup@1' },
    ],
    'editor/context': [
      { when: 'editorHasSelection && platformExplorer.editorHasIdList', group: 'platformExplorer@4' },
    ],
  },
  lazy: 'lookups',
  operations: ['GetPlatformIDsFromConsoleLiveIDs'],
  parse: parseLookupArgs('ids'),
  handler: lookUpConsoleLiveIds,
});
