// Look Up Account Info: one account of a title (GetUserAccountInfo) by its PlatformId, e-mail,
// username or title display name, shown as a JSON result document like the other lookups.
import * as vscode from 'vscode';
import { ACCOUNT_LOOKUP_FIELDS, type AccountLookupField } from '../../core/api/accountLookup';
import { validatePlatformId } from '../../core/ids';
import { redactObject } from '../../core/redact';
import { openResultDocument } from '../documents';
import { stringArg, usableTitle } from './args';
import type { CommandContext } from './context';
import { titlesViewArg } from './titlesViewArg';
import { defineCommand, legacy } from './define';

/** The argument member naming each identifier: `{ platformId }`, `{ email }`, `{ username }`, `{ titleDisplayName }`. */
const ARG_MEMBER: Record<AccountLookupField, string> = { PlatformId: 'platformId', Email: 'email', Username: 'username', TitleDisplayName: 'titleDisplayName' };

export interface AccountInfoSummary {
  titleId: string;
  lookedUpBy: AccountLookupField;
  document: vscode.Uri;
}

/** The identifier the argument names (read once, here), else the one the user picks and types. */
async function askIdentifier(c: CommandContext, arg: unknown): Promise<{ field: AccountLookupField; value: string }> {
  const given = ACCOUNT_LOOKUP_FIELDS.flatMap((field) => {
    const value = stringArg(arg, ARG_MEMBER[field]);
    return value === undefined ? [] : [{ field, value }];
  });
  if (given.length > 0) return given[0];
  const labels: Record<AccountLookupField, string> = {
    PlatformId: vscode.l10n.t('PlatformId'), Email: vscode.l10n.t('E-mail address'),
    Username: vscode.l10n.t('Username'), TitleDisplayName: vscode.l10n.t('Display name in this title'),
  };
  const { field } = await c.ui.pick(ACCOUNT_LOOKUP_FIELDS.map((f) => ({ label: labels[f], field: f })), { title: vscode.l10n.t('Look Up Account Info by') });
  const value = await c.ui.input({
    title: vscode.l10n.t('Look Up Account Info'),
    prompt: labels[field],
    validateInput: (v) => (field === 'PlatformId' ? validatePlatformId(v.trim()) : v.trim().length === 0 ? vscode.l10n.t('Enter the {0} to look up.', labels[field]) : undefined),
  });
  return { field, value: value.trim() };
}

export async function lookUpAccountInfo(c: CommandContext, arg?: unknown): Promise<AccountInfoSummary> {
  const { title, client } = await usableTitle(c, arg);
  const { field, value } = await askIdentifier(c, arg);
  const r = await client.getUserAccountInfo({ [field]: value });
  // Service text in a document: any secret the client knows is masked, whatever member it hides in.
  const shown = redactObject({ titleId: title.titleId, lookedUpBy: { [field]: value }, UserInfo: r.UserInfo ?? null }, c.services.secrets.known());
  const doc = await openResultDocument(`${JSON.stringify(shown, null, 2)}\n`, 'json', { what: vscode.l10n.t('Account info'), title });
  return { titleId: title.titleId, lookedUpBy: field, document: doc.uri };
}

/** From the palette while the Titles view has focus: the selected deletion job's player, else asked. */
export function lookUpAccountInfoInView(c: CommandContext): Promise<AccountInfoSummary> {
  return lookUpAccountInfo(c, titlesViewArg(c));
}

export const lookUpAccountInfoCommand = defineCommand({
  id: 'platformExplorer.lookUpAccountInfo',
  title: 'Look Up Account Info…',
  category: true,
  icon: 'account',
  inView: true,
  lazy: 'lookups',
  operations: ['GetUserAccountInfo'],
  ...legacy(lookUpAccountInfo, lookUpAccountInfoInView),
});
