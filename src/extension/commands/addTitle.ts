// Add Title: title ID (hex, checked as you type), display name, where its requests go,
// and optionally its secret key. Nothing is stored until every answer is valid.
import * as vscode from 'vscode';
import { validateTitleId } from '../../core/ids';
import { validateSecretKey } from '../secrets';
import { readSettings } from '../settings';
import type { CommandContext } from './context';
import { validateEmulatorEndpoint, validateTitleName, type EndpointProfile, type TitleRecord } from '../titles';
import { defineCommand, noArguments } from './define';

export async function addTitle(c: CommandContext): Promise<TitleRecord> {
  const s = c.services;
  const p = c.ui;
  const titleId = (await p.input({
    title: vscode.l10n.t('Add Title (1/4): title ID'),
    prompt: vscode.l10n.t('The hex title ID from the title\'s management portal'),
    placeHolder: vscode.l10n.t('e.g. {0}', 'F71AC'),
    validateInput: (v) => validateTitleId(v) ?? (s.titles.get(v) ? vscode.l10n.t('Title {0} is already configured. Use Rename or Set Secret Key on it instead.', v.toUpperCase()) : undefined),
  })).toUpperCase();

  const name = (await p.input({
    title: vscode.l10n.t('Add Title (2/4): display name'),
    prompt: vscode.l10n.t('A name for this title in the Titles view'),
    value: titleId,
    validateInput: validateTitleName,
  })).trim();

  const running = s.emulator.current;
  const profile = (await p.pick<{ label: string; detail: string; profile: EndpointProfile }>(
    [
      { label: vscode.l10n.t('Platform service'), detail: vscode.l10n.t('Requests go to {0} (setting platformExplorer.serviceEndpoint)', readSettings().serviceEndpoint), profile: 'service' },
      { label: vscode.l10n.t('Local emulator'), detail: running ? vscode.l10n.t('The emulator running at {0}', running.origin) : vscode.l10n.t('An emulator on this machine (127.0.0.1)'), profile: 'emulator' },
    ],
    { title: vscode.l10n.t('Add Title (3/4): where are its requests sent?') },
  )).profile;

  // The emulator's endpoint is a step of its own: that path has five steps, each numbered once.
  let emulatorEndpoint: string | undefined;
  if (profile === 'emulator') {
    emulatorEndpoint = (await p.input({
      title: vscode.l10n.t('Add Title (4/5): emulator endpoint'),
      prompt: vscode.l10n.t('The emulator\'s endpoint template, with {titleId}'),
      value: running?.endpoint ?? 'http://127.0.0.1:8080/{titleId}',
      validateInput: validateEmulatorEndpoint,
    })).trim();
  }

  const key = await p.input({
    title: profile === 'emulator' ? vscode.l10n.t('Add Title (5/5): secret key (optional)') : vscode.l10n.t('Add Title (4/4): secret key (optional)'),
    prompt: vscode.l10n.t('The title secret key, kept in VS Code\'s secret storage. Leave empty to set it later.'),
    password: true,
    validateInput: (v) => (v === '' ? undefined : validateSecretKey(v)),
  });

  const title = await s.titles.upsert({ titleId, name, endpointProfile: profile, emulatorEndpoint });
  if (key !== '') {
    await s.secrets.set(titleId, key);
  }
  void c.ui.info(key
    ? vscode.l10n.t('Added title {0} ({1}) with its secret key.', name, titleId)
    : vscode.l10n.t('Added title {0} ({1}); set its secret key before running commands.', name, titleId));
  return title;
}

export const addTitleCommand = defineCommand({
  id: 'platformExplorer.addTitle',
  title: 'Add Title',
  category: true,
  icon: 'add',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.titles', group: 'navigation@1' },
    ],
  },
  parse: noArguments,
  handler: addTitle,
});
