// A window and a terminal resuming one interrupted batch at the same moment: the editor's Resume
// and the command line's `delete-players --resume` both go through the journal's lock, so one of
// them sends and the other is refused or finds nothing left; no player's deletion is sent twice
// (counted by the emulator per operation).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { emu, EXTENSION_ID, requestCount, script, useFreshExtension } from './support/harness';

const RACER = DEMO_TITLES[0];
const DELETE = 'Admin/DeleteMasterPlayerAccount';
const IDS = DEMO_PLAYERS.slice(0, 30).map((p) => p.platformId);

/** The command line's state folder (its journal anchors) in these tests, never the user's. */
const STATE_HOME = mkdtempSync(join(tmpdir(), 'pe-cli-state-'));

/** Runs the command line with the title's key in its environment (never an argument); bounded. */
function cli(args: string[], key: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist', 'cli.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, PLATFORM_SECRET_KEY: key, XDG_STATE_HOME: STATE_HOME, ELECTRON_RUN_AS_NODE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

describe('one batch resumed by the editor and the command line at once', () => {
  const ctx = useFreshExtension({ emulator: true });
  after(() => rmSync(STATE_HOME, { recursive: true, force: true }));

  it('sends each player once: the journal\'s lock lets one of them send', async () => {
    const journals = join(ctx.api.storagePaths().globalStorage, 'deletion-journals');
    rmSync(journals, { recursive: true, force: true });
    await emu(ctx.api, 'POST', 'faults', { latencyMs: 40 });
    const p = script(ctx.api).typeIn('T-RACE').typeIn('30 F71AC').press('Delete 30 Accounts');
    // Progress reports every tenth of the batch: cancel in the run after the start and two more.
    p.cancelProgressIn = / · Deleting master player accounts/;
    p.cancelProgressAfterReports = 3;
    const out = await vscode.commands.executeCommand<{ result?: { cancelled: boolean } }>('platformExplorer.deleteMasterPlayerAccountsFromList', { text: IDS.join('\n') });
    assert.equal(out?.result?.cancelled, true, `${p.errors.join(' | ')} ${p.unexpected.join(' | ')}`);
    const before = await requestCount(ctx.api, DELETE);
    assert.ok(before > 0 && before < 30, `${before} sent before the cancel`);

    const [file] = readdirSync(journals);
    const base = ['delete-players', '--title', RACER.titleId, '--endpoint', ctx.api.emulator()!.endpoint, '--kind', 'platform-id',
      // The editor's journal has no anchor in the command line's state folder: the user says it is the newest copy (issue 29).
      '--journal', join(journals, file), '--resume', '--no-anchor'];
    const dry = await cli([...base, '--dry-run', '--json'], RACER.secretKey);
    assert.equal(dry.code, 0, dry.stderr);
    const confirm = dry.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('{"confirm"')).map((l) => (JSON.parse(l) as { confirm: string }).confirm)[0];
    assert.match(confirm ?? '', /^\d+:[0-9a-f]+$/, dry.stdout);

    // Both at once, with the service slow enough for them to overlap.
    const r = script(ctx.api).press('Resume');
    const [terminal, resumedInEditor] = await Promise.all([
      cli([...base, '--confirm', confirm], RACER.secretKey),
      vscode.commands.executeCommand<number>('platformExplorer.resumeDeletionBatches'),
    ]);
    await emu(ctx.api, 'POST', 'faults/clear');
    const sent = await requestCount(ctx.api, DELETE);
    const said = `CLI exit ${terminal.code}: ${terminal.stderr.slice(0, 400)}; editor resumed ${resumedInEditor}; errors ${r.errors.join(' | ')}`;
    console.log(`      figure: ${said}`);
    assert.equal(sent, 30, `every player's deletion sent exactly once (${before} before the resume). ${said}`);
    const jobs = (await emu<{ jobs: { PlatformId: string }[] }>(ctx.api, 'GET', 'jobs')).jobs.map((j) => j.PlatformId).sort();
    assert.deepEqual(jobs, [...IDS].sort(), said);
  });
});
