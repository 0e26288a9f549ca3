// Start Local Emulator: runs the emulator in this extension host on a free 127.0.0.1 port
// with the demo seed, and adds its demo titles with their keys in one step. It stores keys, so
// it runs in a trusted workspace only (a task can run commands), and asks before it re-points
// titles that already exist to this emulator.
import * as vscode from 'vscode';
import { ContextKeys, setContext } from '../contextKeys';
import { CommandError } from '../errors';
import type { CommandContext } from './context';
import { named, type TitleRecord } from '../titles';
import { defineCommand, noArguments } from './define';
import { removedEmulatorTitles } from '../removedTitles';

/** The endpoints this command's emulator has had (one per start on a new port). */
const OWN_ENDPOINTS = 'platformExplorer.ownEmulatorEndpoints';

export interface StartedEmulator {
  endpoint: string;
  origin: string;
  titleIds: string[];
}

export async function startEmulator(c: CommandContext): Promise<StartedEmulator> {
  const s = c.services;
  if (!s.clients.isTrusted()) {
    throw new CommandError(
      vscode.l10n.t('This workspace is not trusted, so Platform Explorer does not start the local emulator or store its keys from it.'),
      vscode.l10n.t('Trust the workspace (Workspaces: Manage Workspace Trust) and run the command again.'),
    );
  }
  const wasRunning = s.emulator.current !== undefined;
  const serving = wasRunning ? undefined : await s.emulatorProbe.refresh();
  if (serving) {
    // Another emulator (e.g. npm run demo's) serves the titles: re-pointing them would change their data.
    void c.ui.info(vscode.l10n.t('An emulator at {0} already serves your emulator titles; nothing was started.', serving));
    return { endpoint: `${serving}/{titleId}`, origin: serving, titleIds: [] };
  }
  const handle = await s.emulator.start((line) => s.log.info(`[emulator] ${line}`));
  await setContext(ContextKeys.emulatorRunning, true);
  const added: TitleRecord[] = [];
  const skipped: string[] = [];
  const removedByUser = removedEmulatorTitles(s.ctx.globalState);
  const leftRemoved: TitleRecord[] = [];
  // Titles already set up for another emulator get this one's address and key only if the user
  // agrees; an address this command's own emulator had before (an earlier start) is not asked about.
  const own = new Set(s.ctx.globalState.get<string[]>(OWN_ENDPOINTS) ?? []);
  await s.ctx.globalState.update(OWN_ENDPOINTS, [...own, handle.endpoint].filter((e, i, all) => all.indexOf(e) === i).slice(-20));
  const moved = handle.titles.map((t) => s.titles.get(t.titleId))
    .filter((t): t is TitleRecord => t !== undefined && t.endpointProfile === 'emulator' && t.emulatorEndpoint !== handle.endpoint && !own.has(t.emulatorEndpoint ?? ''));
  let leaveMoved = false;
  if (moved.length > 0) {
    const REPOINT = vscode.l10n.t('Re-point');
    leaveMoved = await c.ui.optional.confirm(
      vscode.l10n.t('Point {0} at the emulator at {1}?', moved.map(named).join(', '), handle.origin),
      vscode.l10n.t('They now use {0}; their secret keys will be replaced by the emulator\'s.', [...new Set(moved.map((t) => t.emulatorEndpoint ?? ''))].join(', ')),
      REPOINT,
    ) !== REPOINT;
  }
  for (const t of handle.titles) {
    const existing = s.titles.get(t.titleId);
    if (!existing && removedByUser.has(t.titleId)) {
      // The user removed it: a start of the emulator is no reason to bring it back.
      leftRemoved.push({ titleId: t.titleId, name: t.name, endpointProfile: 'emulator' });
      continue;
    }
    if (existing && existing.endpointProfile !== 'emulator') {
      // Never point a service title (or its key) at the emulator.
      skipped.push(t.titleId);
      continue;
    }
    if (leaveMoved && moved.some((m) => m.titleId === t.titleId)) {
      skipped.push(t.titleId);
      continue;
    }
    added.push(await s.titles.upsert({
      titleId: t.titleId,
      name: existing?.name ?? t.name,
      endpointProfile: 'emulator',
      emulatorEndpoint: handle.endpoint,
      production: existing?.production,
    }));
    await s.secrets.set(t.titleId, t.secretKey);
  }
  void s.emulatorProbe.refresh();
  const names = added.map(named).join(', ');
  void c.ui.info(
    (wasRunning ? vscode.l10n.t('The local emulator is already running at {0}', handle.origin) : vscode.l10n.t('Local emulator started at {0}', handle.origin)) +
      (names ? vscode.l10n.t('; titles ready: {0}.', names) : '.') +
      (skipped.length ? vscode.l10n.t(' Skipped {0}: already configured elsewhere.', skipped.join(', ')) : '') +
      (leftRemoved.length ? vscode.l10n.t(' Not added back: {0}, which you removed (Add Title with its title ID and the local emulator, then Start Local Emulator again, brings it back with its key).', leftRemoved.map(named).join(', ')) : ''),
  );
  return { endpoint: handle.endpoint, origin: handle.origin, titleIds: added.map((t) => t.titleId) };
}

export async function stopEmulator(c: CommandContext): Promise<boolean> {
  const s = c.services;
  const stopped = await s.emulator.stop();
  await setContext(ContextKeys.emulatorRunning, false);
  s.tree.refresh();
  await s.emulatorProbe.refresh();
  void c.ui.info(stopped ? vscode.l10n.t('Local emulator stopped. Its titles stay; start it again to use them.') : vscode.l10n.t('The local emulator is not running.'));
  return stopped;
}

export const startEmulatorCommand = defineCommand({
  id: 'platformExplorer.startEmulator',
  title: 'Start Local Emulator',
  category: true,
  icon: 'play',
  palette: '!platformExplorer.emulatorRunning && !platformExplorer.emulatorServing',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.titles && !platformExplorer.emulatorRunning && !platformExplorer.emulatorServing', group: '1_emulator@1' },
    ],
  },
  lazy: 'emulator-commands',
  parse: noArguments,
  handler: startEmulator,
});

export const stopEmulatorCommand = defineCommand({
  id: 'platformExplorer.stopEmulator',
  title: 'Stop Local Emulator',
  category: true,
  icon: 'debug-stop',
  palette: 'platformExplorer.emulatorRunning',
  menus: {
    'view/title': [
      { when: 'view == platformExplorer.titles && platformExplorer.emulatorRunning', group: '1_emulator@2' },
    ],
  },
  lazy: 'emulator-commands',
  parse: noArguments,
  handler: stopEmulator,
});
