// Look Up Account Info: one account of a title (GetUserAccountInfo) by its PlatformId, e-mail,
// username or title display name, shown as a JSON result document like the other lookups.
import * as vscode from 'vscode';
import { ACCOUNT_LOOKUP_FIELDS, type AccountLookupField } from '../../core/api/accountLookup';
import { validatePlatformId } from '../../core/ids';
import { redactObject } from '../../core/redact';
import { openResultDocument } from '../documents';
import { usableTitle } from './args';
import type { CommandContext } from './context';
import { titlesViewPlayer } from './titlesViewArg';
import { parseTarget, stringMember, type Target } from './parse';
import { defineCommand, type Invocation } from './define';

/** The argument member naming each identifier: `{ platformId }`, `{ email }`, `{ username }`, `{ titleDisplayName }`. */
const ARG_MEMBER: Record<AccountLookupField, string> = { PlatformId: 'platformId', Email: 'email', Username: 'username', TitleDisplayName: 'titleDisplayName' };

export interface AccountInfoSummary {
  titleId: string;
  lookedUpBy: AccountLookupField;
  document: vscode.Uri;
}

export interface AccountIdentifier {
  readonly field: AccountLookupField;
  readonly value: string;
}

/** What Look Up Account Info is started with: the title, and the identifier when one is given. */
export interface AccountInfoArgs {
  readonly target: Target;
  readonly identifier?: AccountIdentifier;
}

/**
 * `{ titleId, platformId | email | username | titleDisplayName }` (a link, a test), a node of the
 * view (its title), nothing (asked); the InView variant: the selected deletion job's player.
 */
export function parseAccountInfoArgs(raw: readonly unknown[], at: Invocation): AccountInfoArgs {
  if (at.inView) {
    const { target, platformId } = titlesViewPlayer(at.viewSelection);
    return { target, identifier: platformId !== undefined ? { field: 'PlatformId', value: platformId } : undefined };
  }
  const given = ACCOUNT_LOOKUP_FIELDS.flatMap((field) => {
    const value = stringMember(raw[0], ARG_MEMBER[field]);
    return value === undefined ? [] : [{ field, value }];
  });
  return { target: parseTarget(raw), identifier: given[0] };
}

/** The identifier given, else the one the user picks and types. */
async function askIdentifier(c: CommandContext, given: AccountIdentifier | undefined): Promise<AccountIdentifier> {
  if (given) return given;
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

export async function lookUpAccountInfo(c: CommandContext, a: AccountInfoArgs): Promise<AccountInfoSummary> {
  const { title, client } = await usableTitle(c, a.target);
  const { field, value } = await askIdentifier(c, a.identifier);
  const r = await client.getUserAccountInfo({ [field]: value });
  // Service text in a document: any secret the client knows is masked, whatever member it hides in.
  const shown = redactObject({ titleId: title.titleId, lookedUpBy: { [field]: value }, UserInfo: r.UserInfo ?? null }, c.services.secrets.known());
  const doc = await openResultDocument(`${JSON.stringify(shown, null, 2)}\n`, 'json', { what: vscode.l10n.t('Account info'), title });
  return { titleId: title.titleId, lookedUpBy: field, document: doc.uri };
}

export const lookUpAccountInfoCommand = defineCommand({
  id: 'platformExplorer.lookUpAccountInfo',
  title: 'Look Up Account Info…',
  category: true,
  icon: 'account',
  inView: true,
  lazy: 'lookups',
  operations: ['GetUserAccountInfo'],
  parse: parseAccountInfoArgs,
  handler: lookUpAccountInfo,
});
