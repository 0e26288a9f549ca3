// Hostile input inside the real VS Code: Add Title and command arguments refuse every hostile
// title ID and endpoint of the corpus, sending nothing; workspace settings cannot redirect the
// service endpoint (a title's key goes only to the user-level one).
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { hostileTemplates, hostileTitleIds } from '../unit/security/hostileEndpoints';
import { emu, requestCount, ScriptedPrompts, script as installScript, useFreshExtension } from './support/harness';

const RACER = DEMO_TITLES[0];
const ARENA = DEMO_TITLES[1];
const STOREFRONT = 'Server/GetPlatformIDsFromStorefrontNames';

/** A loopback listener that records every connection made to it. */
async function startTrap(): Promise<{ endpoint: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/{titleId}`,
    connections: () => connections,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The next configuration change of `setting` (within 15 s, else the test fails naming `what`). */
function configurationChange(setting: string, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(setting)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
    const timer = setTimeout(() => { sub.dispose(); reject(new Error(`timed out waiting for ${what}`)); }, 15_000);
  });
}

describe('Hostile input inside VS Code', function () {
  this.timeout(120_000);
  const fresh = useFreshExtension({ emulator: true });

  function script(): ScriptedPrompts {
    return installScript(fresh.api);
  }

  async function run(p: ScriptedPrompts, command: string, arg?: unknown): Promise<unknown> {
    fresh.api.setPrompts(p);
    return vscode.commands.executeCommand(command, arg);
  }

  it('workspace settings cannot redirect the service endpoint: keys go only to the user-level endpoint', async () => {
    const { api } = fresh;
    const trap = await startTrap();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opened no workspace folder');
    const settingsFile = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    const cfg = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('platformExplorer');
    try {
      // ARENA as a "Platform service" title: its requests follow platformExplorer.serviceEndpoint.
      await api.titles.remove(ARENA.titleId);
      let p = script();
      await run(p.typeIn(ARENA.titleId).typeIn('Arena (service)').choose('Platform service').typeIn(ARENA.secretKey), 'platformExplorer.addTitle');
      assert.equal(api.titles.get(ARENA.titleId)?.endpointProfile, 'service');
      const emulatorEndpoint = api.emulator()!.endpoint;
      await cfg().update('serviceEndpoint', emulatorEndpoint, vscode.ConfigurationTarget.Global);

      // A workspace that tries to send the key elsewhere, through the API and through the file.
      for (const target of [vscode.ConfigurationTarget.Workspace, vscode.ConfigurationTarget.WorkspaceFolder]) {
        await Promise.resolve(cfg().update('serviceEndpoint', trap.endpoint, target)).catch(() => undefined);
      }
      // The workbench reads the file and fires a change for the setting: then it has seen it.
      const read = configurationChange('platformExplorer.serviceEndpoint', 'the workbench to read the workspace settings file');
      await vscode.workspace.fs.writeFile(settingsFile, Buffer.from(JSON.stringify({ 'platformExplorer.serviceEndpoint': trap.endpoint }, null, 2)));
      await read;
      assert.equal(cfg().inspect<string>('serviceEndpoint')?.globalValue, emulatorEndpoint);

      const before = await requestCount(api, STOREFRONT);
      const name = DEMO_PLAYERS.find((x) => x.storefrontNames.length > 0 && x.playedTitles.includes(ARENA.titleId))?.storefrontNames[0] ?? 'someone';
      p = script();
      await run(p, 'platformExplorer.lookUpStorefrontNames', { titleId: ARENA.titleId, names: [name] });
      assert.deepEqual(p.errors, [], 'the lookup failed');
      assert.equal(await requestCount(api, STOREFRONT), before + 1, 'the request did not reach the user-level endpoint');
      assert.equal(trap.connections(), 0, 'a request went to the workspace-level endpoint');
      // With no user-level endpoint, the workspace value is still not used: the command refuses.
      await cfg().update('serviceEndpoint', undefined, vscode.ConfigurationTarget.Global);
      p = script();
      await run(p, 'platformExplorer.lookUpStorefrontNames', { titleId: ARENA.titleId, names: [name] });
      assert.equal(p.errors.length, 1);
      assert.match(p.errors[0], /endpoint/i);
      assert.equal(trap.connections(), 0, 'a request went to the workspace-level endpoint');
    } finally {
      await cfg().update('serviceEndpoint', undefined, vscode.ConfigurationTarget.Global);
      // The workbench reads the deleted file later and then fires a change, which replaces the
      // title clients: wait for it here, or it lands in the next test's commands.
      const read = configurationChange('platformExplorer.serviceEndpoint', 'the workbench to read the deleted workspace settings file');
      await vscode.workspace.fs.delete(settingsFile).then(undefined, () => undefined);
      await read;
      await trap.close();
    }
  });

  it('Add Title and command arguments refuse every hostile title ID and endpoint of the corpus, sending nothing', async () => {
    const { api } = fresh;
    const titlesBefore = JSON.stringify(api.titles.all());
    const statsBefore = (await emu<{ total: number }>(api, 'GET', 'stats')).total;
    const trapHost = '127.0.0.1:9';
    for (const h of hostileTitleIds(trapHost)) {
      const p = script();
      await run(p.typeIn(h.value), 'platformExplorer.addTitle');
      assert.match(p.inputs[0]?.validation ?? '', /^Title ID\b/, `Add Title accepted ${h.why}`);
    }
    for (const h of hostileTemplates(trapHost, api.emulator()!.origin.replace('http://', ''))) {
      const p = script();
      await run(p.typeIn('C0DE').typeIn('Hostile').choose('Local emulator').typeIn(h.value), 'platformExplorer.addTitle');
      assert.match(p.inputs[2]?.validation ?? '', /endpoint/i, `Add Title accepted the emulator endpoint ${h.why}`);
    }
    assert.equal((await emu<{ total: number }>(api, 'GET', 'stats')).total, statsBefore, 'a request was sent');
    // As a command argument (a link, another extension): refused before any request, unless it
    // is a configured title ID with spaces around it, which goes to that title's own endpoint.
    let legitimate = 0;
    for (const h of hostileTitleIds(trapHost)) {
      // An empty one names no title: the command asks which (unanswered here).
      if (h.value.trim() === '') continue;
      const q = script();
      const sentBefore = await requestCount(api, STOREFRONT);
      await run(q, 'platformExplorer.lookUpStorefrontNames', { titleId: h.value, names: ['someone'] });
      if (api.titles.get(h.value.trim()) !== undefined) {
        // The lookup went to that title: exactly one request, counted once the command has its answer.
        legitimate++;
        assert.equal(await requestCount(api, STOREFRONT), sentBefore + 1, `lookup with ${h.why}: ${[...q.errors, ...q.infos].join(' | ')}`);
        continue;
      }
      assert.equal(q.errors.length, 1, `lookup with ${h.why}`);
      assert.doesNotMatch(q.errors[0], /[\u0000-\u001f\u200b-\u200f\u202a-\u202e]/, `the error for ${h.why} carries the raw value`);
    }
    // Lookup entries with control characters or too long: kept apart as invalid, never sent, never shown raw.
    for (const bad of ['racer\r\nX-SecretKey: x', 'a\u0000b', `${'n'.repeat(200)}\n`]) {
      const q = script();
      const summary = (await run(q, 'platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: [bad] })) as { invalid: number; document: vscode.Uri } | undefined;
      assert.deepEqual(q.errors, [], JSON.stringify(bad));
      assert.equal(summary?.invalid, 1, JSON.stringify(bad));
      const shown = vscode.workspace.textDocuments.find((d) => d.uri.toString() === summary.document.toString())?.getText() ?? '';
      assert.doesNotMatch(shown + q.infos.join(''), /[\u0000-\u0009\u000b-\u001f]/, `${JSON.stringify(bad)} is shown raw`);
    }
    assert.equal((await emu<{ total: number }>(api, 'GET', 'stats')).total, statsBefore + legitimate, 'a request was sent');
    assert.equal(JSON.stringify(api.titles.all()), titlesBefore, 'a hostile title was added');
  });
});
