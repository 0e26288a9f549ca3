// Test Launcher Login: LoginWithLauncher with an IdentityToken typed as a password, the
// CreateAccount flag, CustomTags and the InfoRequestParameters to return; the result goes
// to the Login Result panel (secrets masked there).
import * as vscode from 'vscode';
import { PROFILE_CONSTRAINT_FLAGS } from '../../core/api/operations';
import type { InfoRequestParameters, LoginRequestInput } from '../../core/api/types';
import { redactObject } from '../../core/redact';
import { CommandError } from '../errors';
import { emulatorOrigin, mintLauncherToken, validateSubject } from '../launcherToken';
import { usableTitle } from './args';
import type { CommandContext } from './context';
import { named, type TitleRecord } from '../titles';
import { showLoginResult } from '../views/loginResultPanel';
import { defineCommand } from './define';
import { parseTarget, type Target } from './parse';

type BooleanFlag = {
  [K in keyof InfoRequestParameters]-?: NonNullable<InfoRequestParameters[K]> extends boolean ? K : never;
}[keyof InfoRequestParameters];

// Built on use, so the texts come from the l10n bundle loaded at activation.
const flagChoices = (): { flag: BooleanFlag; detail: string; picked?: boolean }[] => [
  { flag: 'GetUserAccountInfo', detail: vscode.l10n.t('Account info: PlatformId, created, linked accounts'), picked: true },
  { flag: 'GetPlayerProfile', detail: vscode.l10n.t('Player profile: display name, created, last login') },
  { flag: 'GetUserVirtualCurrency', detail: vscode.l10n.t('Virtual currency balances and recharge times') },
  { flag: 'GetUserData', detail: vscode.l10n.t('User data (optionally only some keys)') },
  { flag: 'GetUserReadOnlyData', detail: vscode.l10n.t('Read-only user data') },
  { flag: 'GetUserInventory', detail: vscode.l10n.t('Inventory') },
  { flag: 'GetCharacterList', detail: vscode.l10n.t('Characters') },
  { flag: 'GetCharacterInventories', detail: vscode.l10n.t('Character inventories') },
  { flag: 'GetTitleData', detail: vscode.l10n.t('Title data') },
  { flag: 'GetPlayerStatistics', detail: vscode.l10n.t('Statistics') },
];

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function validateIdentityToken(v: string): string | undefined {
  if (v.trim().length === 0) {
    return vscode.l10n.t('Paste the IdentityToken the launcher\'s identity provider returned after login.');
  }
  return JWT_SHAPE.test(v.trim())
    ? undefined
    : vscode.l10n.t('The IdentityToken must be a JWT: three dot-separated base64url parts, as the launcher\'s identity provider returns it.');
}

/** `key=value` pairs, comma-separated; empty is fine. */
export function parseCustomTags(v: string): Record<string, string> | string {
  const tags: Record<string, string> = {};
  for (const part of v.split(',').map((x) => x.trim()).filter((x) => x.length > 0)) {
    const eq = part.indexOf('=');
    if (eq <= 0) {
      return vscode.l10n.t('CustomTags: "{0}" is not key=value. Write tags as build=1234, trace=abc.', part.slice(0, 40));
    }
    tags[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return tags;
}

/** "Test Launcher Login on Demo Racer (F71AC), step 2 of 4: CreateAccount". */
function stepTitle(title: TitleRecord, n: number, of: number, what: string): string {
  return vscode.l10n.t('Test Launcher Login on {0}, step {1} of {2}: {3}', named(title), n, of, what);
}

/** The IdentityToken: pasted, or for an emulator title minted by the emulator on request. */
async function identityTokenFor(c: CommandContext, title: TitleRecord): Promise<string> {
  const origin = emulatorOrigin(title);
  const step = stepTitle(title, 1, 4, 'IdentityToken');
  if (origin) {
    const mint = (await c.ui.pick(
      [
        { label: vscode.l10n.t('Mint a test IdentityToken'), detail: vscode.l10n.t('The local emulator at {0} signs one for a launcher user you name', origin), mint: true },
        { label: vscode.l10n.t('Paste an IdentityToken'), detail: vscode.l10n.t('A JWT from a launcher identity provider'), mint: false },
      ],
      { title: step },
    )).mint;
    if (mint) {
      const subject = (await c.ui.input({
        title: step,
        prompt: vscode.l10n.t('The launcher user (subject) to sign in as; the demo players are launcher-user-0000, launcher-user-0001, …'),
        value: 'launcher-user-0000',
        validateInput: validateSubject,
      })).trim();
      return mintLauncherToken(origin, title.titleId, subject);
    }
  }
  return (await c.ui.input({
    title: step,
    prompt: vscode.l10n.t('The JWT from the launcher\'s identity provider. It is sent once and never stored.'),
    password: true,
    validateInput: validateIdentityToken,
  })).trim();
}

export async function testLauncherLogin(c: CommandContext, t: Target): Promise<unknown> {
  const s = c.services;
  const { title, client } = await usableTitle(c, t);
  const p = c.ui;
  const token = await identityTokenFor(c, title);
  s.secrets.remember(token);

  const create = (await p.pick(
    [
      { label: vscode.l10n.t('Sign in only'), detail: vscode.l10n.t('Fails with AccountNotFound when no account is linked to this identity'), create: false },
      { label: vscode.l10n.t('Create the account if needed'), detail: vscode.l10n.t('Sets CreateAccount: a new account is created when none is linked'), create: true },
    ],
    { title: stepTitle(title, 2, 4, 'CreateAccount') },
  )).create;

  const flags = (await p.pickMany(
    flagChoices().map((f) => ({ label: f.flag, detail: f.detail, picked: f.picked === true })),
    { title: stepTitle(title, 3, 4, vscode.l10n.t('InfoRequestParameters (what to return)')) },
  )).map((i) => i.label as BooleanFlag);

  const info: LoginRequestInput['InfoRequestParameters'] & object = {};
  for (const f of flags) {
    info[f] = true;
  }
  // Each further question is a step of its own; the count grows by those the flags call for.
  const total = 4 + (info.GetPlayerProfile ? 1 : 0) + (info.GetUserData ? 1 : 0);
  let n = 3;
  if (info.GetPlayerProfile) {
    // Which profile members to return; a flag the title does not allow fails with 1303.
    const shown = await p.pickMany(
      PROFILE_CONSTRAINT_FLAGS.map((f) => ({ label: f, picked: f === 'ShowDisplayName' })),
      { title: stepTitle(title, ++n, total, vscode.l10n.t('ProfileConstraints (profile members to return)')) },
    );
    info.ProfileConstraints = Object.fromEntries(shown.map((i) => [i.label, true]));
  }
  if (info.GetUserData) {
    const keys = await p.input({
      title: stepTitle(title, ++n, total, 'UserDataKeys'),
      prompt: vscode.l10n.t('User data keys to return, comma-separated (empty: all keys)'),
    });
    const list = keys.split(',').map((k) => k.trim()).filter((k) => k.length > 0);
    if (list.length > 0) {
      info.UserDataKeys = list;
    }
  }

  const tagsText = await p.input({
    title: stepTitle(title, total, total, vscode.l10n.t('CustomTags (optional)')),
    prompt: vscode.l10n.t('key=value pairs, comma-separated, e.g. build=1234, trace=abc'),
    validateInput: (v) => {
      const r = parseCustomTags(v);
      return typeof r === 'string' ? r : undefined;
    },
  });
  const tags = parseCustomTags(tagsText);
  if (typeof tags === 'string') {
    throw new CommandError(tags);
  }

  const request: LoginRequestInput = {
    IdentityToken: token,
    ...(create ? { CreateAccount: true } : {}),
    ...(Object.keys(tags).length > 0 ? { CustomTags: tags } : {}),
    ...(Object.keys(info).length > 0 ? { InfoRequestParameters: info } : {}),
  };
  const result = await p.progress(vscode.l10n.t('Signing in to {0} with the launcher token', title.name), async (_progress, ct) => {
    const abort = new AbortController();
    const sub = ct.onCancellationRequested(() => abort.abort());
    try {
      return await client.loginWithLauncher(request, { signal: abort.signal });
    } finally {
      sub.dispose();
    }
  });
  for (const secret of [result.SessionTicket, result.EntityToken?.EntityToken]) {
    if (typeof secret === 'string') {
      s.secrets.remember(secret);
    }
  }
  showLoginResult(s, { titleId: title.titleId, titleName: title.name, result });
  // What a caller (or a test) gets back never carries a secret.
  return redactObject(result, s.secrets.known());
}

export const testLauncherLoginCommand = defineCommand({
  id: 'platformExplorer.testLauncherLogin',
  title: 'Test Launcher Login',
  category: true,
  icon: 'sign-in',
  menus: {
    'view/item/context': [
      { when: 'view == platformExplorer.titles && viewItem =~ /\\bkeySet\\b/', group: '2_player@3' },
    ],
  },
  lazy: 'panels',
  operations: ['LoginWithLauncher'],
  // A title's node (the view's menu), `{ titleId }` (a test), nothing (the active title).
  parse: parseTarget,
  handler: testLauncherLogin,
});
