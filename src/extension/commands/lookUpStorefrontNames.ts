// Look Up PlatformIds from Storefront Names.
import * as vscode from 'vscode';
import { usableTitle } from './args';
import type { CommandContext } from './context';
import { gatherEntries, lookUpAndShow, parseLookupArgs, splitInvalid, type LookupArgs, type LookupSpec, type LookupSummary } from './lookup';
import { defineCommand } from './define';

// Built on use, so the texts come from the l10n bundle loaded at activation.
const spec = (): LookupSpec => ({
  kind: 'storefront',
  what: vscode.l10n.t('Storefront Names'),
  one: vscode.l10n.t('Storefront Name'),
  documentName: vscode.l10n.t('Storefront lookup'),
  argName: 'names',
  inputField: 'StorefrontName',
  placeHolder: vscode.l10n.t('e.g. {0}', 'racer_ana_0, racer_bo_1'),
});

export async function lookUpStorefrontNames(c: CommandContext, a: LookupArgs): Promise<LookupSummary> {
  const { title, client } = await usableTitle(c, a.target);
  const entries = splitInvalid(spec(), await gatherEntries(c, a, spec()));
  return lookUpAndShow(c, title, spec(), entries, (opts) => client.getPlatformIdsFromStorefrontNames(entries.valid, opts));
}

export const lookUpStorefrontNamesCommand = defineCommand({
  id: 'platformExplorer.lookUpStorefrontNames',
  title: 'Look Up PlatformIds from Storefront Names',
  category: true,
  icon: 'search',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bkeySet\\b/', group: '1_lookup@2' },
    ],
    'editor/context': [
      { when: 'editorHasSelection && platformExplorer.editorHasIdList', group: 'platformExplorer@5' },
    ],
  },
  lazy: 'lookups',
  operations: ['GetPlatformIDsFromStorefrontNames'],
  parse: parseLookupArgs('names'),
  handler: lookUpStorefrontNames,
});
