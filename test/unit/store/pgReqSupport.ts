// Shared by the team store's data-request tests: a request made and dry-run through the CLI with
// --store postgres, and the intents its journals hold (the admin's view).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLAYERS, runCli } from '../deletion/support';
import { KEY_ENV } from '../requests/support';
import { asUser } from './support';

/** The environment of a `request ... --store postgres` run: every demo title's key, the store's URL. */
export function reqEnv(url: string, more: Record<string, string> = {}): Record<string, string> {
  return { ...KEY_ENV, PLATFORM_STORE_URL: url, ...more };
}

/** Accounts of title F71AC the tests' requests name by PlatformId. */
export function accounts(n: number): string[] {
  return PLAYERS.filter((p) => p.playedTitles.includes('F71AC')).slice(0, n).map((p) => p.platformId);
}

/** A new request of `pids` (asking `asks`) in the store, and its dry run's --confirm value. */
export async function newStoreRequest(url: string, dir: string, endpoint: string, pids: string[], asks: string, ref = 'TEAM-1'): Promise<{ id: string; confirm: string }> {
  const ids = join(dir, `ids-${ref}.txt`);
  writeFileSync(ids, pids.map((p) => `platformid:${p}`).join('\n'));
  const made = await runCli(['request', 'new', '--store', 'postgres', '--reference', ref, '--asks', asks, '--identifiers', ids, '--titles', 'F71AC', '--endpoint', endpoint, '--json'], reqEnv(url));
  assert.equal(made.code, 0, made.stderr);
  const id = (JSON.parse(made.stdout) as { id: string }).id;
  const dry = await runCli(['request', 'run', '--store', 'postgres', '--id', id, '--dry-run', '--json'], reqEnv(url));
  assert.equal(dry.code, 0, dry.stderr);
  const d = JSON.parse(dry.stdout) as { accounts: unknown[]; confirm: string };
  assert.equal(d.accounts.length, pids.length);
  return { id, confirm: d.confirm };
}

/** The request's intents (one row per claim), with their outcome's state when recorded. */
export async function requestIntents(url: string, id: string): Promise<{ platform_id: string; action: string; state: string | null; live: boolean; operator_name: string; operator_fingerprint: string }[]> {
  return asUser(url, `SELECT i.platform_id, i.action, o.state, i.lease_until > clock_timestamp() AS live, i.operator_name, i.operator_fingerprint
    FROM platform_explorer.request_journals j JOIN platform_explorer.intents i ON i.batch_id = j.batch_id
    LEFT JOIN platform_explorer.outcomes o ON o.intent_id = i.id WHERE j.request_id = $1 ORDER BY i.id`, [id]);
}
