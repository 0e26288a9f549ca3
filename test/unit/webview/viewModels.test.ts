// Host-side view models of the panels: what is posted to a page must never carry a secret,
// ClientSecret never survives, absent parts say so, and malformed results do not throw.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { mask } from '../../../src/core/redact';
import type { HandheldStoreConfig, LoginResult } from '../../../src/core/api/types';
import { buildHandheldStoreView, handheldStoreMessage, stripClientSecrets } from '../../../src/extension/views/handheldStoreView';
import { contentSecurityPolicy, newNonce, panelHtml } from '../../../src/extension/views/html';
import { PANEL_CHARS } from '../../../src/extension/views/budget';
import { buildLoginResultView, loginResultMessage, loginSecrets, redactedLoginJson } from '../../../src/extension/views/loginResultView';
import type { Block, FieldRow, PanelView } from '../../../src/webview/protocol';
import { isPageToHost } from '../../../src/webview/protocol';
import { handheldStoreConfig, largeLoginResult, loginResult, SECRETS } from './fixtures';
import { readableLocal } from '../../../src/core/time';

const ALL_SECRETS = Object.values(SECRETS);

function assertNoSecret(serialized: string, secrets: readonly string[] = ALL_SECRETS): void {
  for (const s of secrets) {
    assert.ok(!serialized.includes(s), `secret ${s.slice(0, 12)}… leaked`);
    // A fragment long enough to identify the secret must not be there either.
    assert.ok(!serialized.includes(s.slice(0, 16)), `start of secret ${s.slice(0, 12)}… leaked`);
  }
}

function allRows(blocks: Block[]): FieldRow[] {
  return blocks.flatMap((b) => (b.kind === 'fields' ? b.rows : b.kind === 'section' ? allRows(b.blocks) : []));
}

function allText(view: PanelView): string {
  return JSON.stringify(view);
}

const plain = (prefix: string) => {
  let n = 0;
  return () => `${prefix}-${n++}`;
};

/** A small login result's panel arguments. */
const args0 = () => ({ titleId: 'F71AC', titleName: 'Demo Racer', result: loginResult(plain('s')) });

describe('webview view models', () => {
  describe('Login Result', () => {
    const args = { titleId: 'F71AC', titleName: 'Demo Racer', result: loginResult(plain('v')) };

    it('posts no secret: entity token, session ticket, identity token all masked', () => {
      const json = JSON.stringify(loginResultMessage(args));
      assertNoSecret(json);
      assert.ok(json.includes(mask(SECRETS.EntityToken)), 'masked entity token shown');
      assert.ok(json.includes(mask(SECRETS.SessionTicket)), 'masked session ticket shown');
    });

    it('masks a secret the service echoes in an ordinary member, and token-like values', () => {
      const result = loginResult(plain('v'));
      const info = result.InfoResultPayload!;
      info.UserData = { Note: { Value: `ticket was ${SECRETS.SessionTicket}`, LastUpdated: '2026-01-02T03:04:05' } };
      info.PlayerProfile!.DisplayName = SECRETS.EntityToken;
      const randomToken = 'Zq8Lm2Nx7Pw4Rt6Yv1Bc3Df5Gh9Jk0AsDfGhJkL';
      info.AccountInfo!.Username = randomToken;
      const json = JSON.stringify(loginResultMessage({ ...args, result }));
      assertNoSecret(json);
      assert.ok(!json.includes(randomToken), 'token-like value masked');
      assert.ok(json.includes('ticket was '), 'the rest of the value is kept');
    });

    it('offers Copy only for the secrets the host holds', () => {
      const rows = allRows(loginResultMessage(args).view.blocks).filter((r) => r.copy);
      assert.deepEqual(rows.map((r) => [r.label, r.copy, r.value]), [
        ['SessionTicket', 'SessionTicket', mask(SECRETS.SessionTicket)],
        ['EntityToken', 'EntityToken', mask(SECRETS.EntityToken)],
      ]);
      assert.deepEqual(loginSecrets(args.result), { EntityToken: SECRETS.EntityToken, SessionTicket: SECRETS.SessionTicket });
      const none = allRows(loginResultMessage({ ...args, result: { PlatformId: 'ABC' } as LoginResult }).view.blocks).filter((r) => r.copy);
      assert.deepEqual(none, []);
    });

    it('shows every non-secret string the service returned', () => {
      const used: string[] = [];
      const result = loginResult(() => {
        const v = `[v-${used.length}]`;
        used.push(v);
        return v;
      });
      const text = allText(loginResultMessage({ ...args, result }).view);
      assert.ok(used.length >= 40, `fixture fills ${used.length} slots`);
      for (const v of used) assert.ok(text.includes(v), `${v} shown`);
    });

    it('"Open as JSON" is the redacted result, with non-secret members intact', () => {
      const doc = redactedLoginJson(args.result);
      assertNoSecret(doc);
      const parsed = JSON.parse(doc) as LoginResult;
      assert.equal(parsed.PlatformId, args.result.PlatformId);
      assert.equal(parsed.EntityToken?.Entity?.Id, args.result.EntityToken?.Entity?.Id);
      assert.equal(parsed.EntityToken?.EntityToken, mask(SECRETS.EntityToken));
      assert.equal(parsed.SessionTicket, mask(SECRETS.SessionTicket));
      // The host's copy is untouched, so Copy still has the real values.
      assert.equal(args.result.SessionTicket, SECRETS.SessionTicket);
    });

    it('says "not returned" for every absent part', () => {
      const view = loginResultMessage({ ...args, result: {} as LoginResult }).view;
      const text = allText(view);
      for (const part of ['EntityToken', 'InfoResultPayload', 'SettingsForUser', 'TreatmentAssignment']) {
        assert.ok(text.includes(`${part}: not returned`), `${part} says not returned`);
      }
      const signIn = allRows(view.blocks).filter((r) => ['NewlyCreated', 'PlatformId', 'LastLoginTime', 'SessionTicket'].includes(r.label));
      assert.equal(signIn.length, 4);
      assert.ok(signIn.every((r) => r.value === null));

      const partial = loginResultMessage({ ...args, result: { InfoResultPayload: { UserDataVersion: 3 } } as LoginResult }).view;
      const partialText = allText(partial);
      for (const part of ['AccountInfo', 'PlayerProfile', 'UserData', 'UserVirtualCurrency']) {
        assert.ok(partialText.includes(`${part}: not returned`), `${part} says not returned`);
      }
    });

    it('shows the parts beyond account, profile, user data and currency; money from cents; the avatar URL as text', () => {
      const result = {
        NewlyCreated: false,
        InfoResultPayload: {
          UserDataVersion: 2,
          UserReadOnlyDataVersion: 5,
          UserReadOnlyData: { Rank: { Value: 'Legend', LastUpdated: '2026-01-02T03:04:05' } },
          UserInventory: [{ ItemId: 'sword_1', DisplayName: 'Sword', UnitPrice: 250, UnitCurrency: 'GC', RemainingUses: 3 }],
          CharacterList: [{ CharacterId: 'C1', CharacterName: 'Driver Ana', CharacterType: 'Driver' }],
          CharacterInventories: [{ CharacterId: 'C1', Inventory: [{ DisplayName: 'Helmet', UnitPrice: 0 }] }],
          TitleData: { Season: '3' },
          PlayerStatistics: [{ StatisticName: 'Wins', Value: 42, Version: 1 }],
          PlayerProfile: {
            TotalValueToDateInUSD: 123456,
            AvatarUrl: 'https://avatars.example/racer/4.png',
            Tags: [{ TagValue: 'beta-tester' }],
            LinkedAccounts: [{ Platform: 'Launcher', PlatformUserId: 'launcher-user-0004' }],
            ValuesToDate: [{ Currency: 'USD', TotalValue: 123456, TotalValueAsDecimal: '1234.56' }],
          },
        },
      } as LoginResult;
      const view = loginResultMessage({ ...args, result }).view;
      const text = allText(view);
      for (const shown of ['UserReadOnlyDataVersion', 'Legend', 'Sword', 'sword_1', 'Driver Ana', 'Helmet', 'Season', 'Wins', '42',
        'beta-tester', 'launcher-user-0004', '1234.56', 'https://avatars.example/racer/4.png']) {
        assert.ok(text.includes(shown), `${shown} shown`);
      }
      assert.ok(text.includes('$1,234.56 (123456 cents)'), 'TotalValueToDateInUSD as money from cents');
      assert.ok(!allRows(view.blocks).some((r) => r.label === 'Other members'), 'the new parts are known, not "other members"');
    });

    it('lays out user data and virtual currency with recharge times as tables; times in the reader\'s zone, the service\'s year-1 "no time" as "not set"', () => {
      const result = {
        LastLoginTime: '0001-01-01T00:00:00',
        InfoResultPayload: {
          UserData: { Level: { Value: '12', LastUpdated: '2026-01-02T03:04:05', Permission: 'Public' } },
          UserVirtualCurrency: { GC: 40 },
          UserVirtualCurrencyRechargeTimes: { GC: { SecondsToRecharge: 30, RechargeTime: '2026-01-03T00:00:00', RechargeMax: 100 } },
        },
      };
      const tables: { caption: string; columns: string[]; rows: string[][] }[] = [];
      const walk = (bs: Block[]) => bs.forEach((b) => (b.kind === 'table' ? tables.push(b) : b.kind === 'section' && walk(b.blocks)));
      walk(loginResultMessage({ ...args, result: result as unknown as LoginResult }).view.blocks);
      // Shown in the reader's zone with the zone named once (readableLocal), not as raw ISO text.
      assert.deepEqual(tables.find((t) => t.columns[0] === 'Key')?.rows, [['Level', '12', readableLocal('2026-01-02T03:04:05'), 'Public']]);
      assert.match(readableLocal('2026-01-02T03:04:05'), /^2026-01-0[12] \d\d:\d\d \S+$/);
      assert.deepEqual(tables.find((t) => t.caption === 'Balances and recharge times')?.rows, [['GC', '40', '30', readableLocal('2026-01-03T00:00:00'), '100']]);
      const view = loginResultMessage({ ...args, result: result as unknown as LoginResult }).view;
      assert.equal(allRows(view.blocks).find((r) => r.label === 'LastLoginTime')?.value, 'not set');
    });

    it('never throws on malformed results, and still posts no secret', () => {
      fc.assert(fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true, withMap: true }), (junk) => {
        const result = { ...(typeof junk === 'object' && junk !== null ? junk : { X: junk }), SessionTicket: SECRETS.SessionTicket } as LoginResult;
        const msg = loginResultMessage({ ...args, result });
        assert.equal(msg.type, 'render');
        assertNoSecret(JSON.stringify(msg), [SECRETS.SessionTicket]);
      }), { numRuns: 300 });
      fc.assert(fc.property(fc.jsonValue(), (junk) => {
        loginResultMessage({ ...args, result: { InfoResultPayload: junk, EntityToken: junk, TreatmentAssignment: junk } as never });
      }), { numRuns: 300 });
    });
  });

  describe('HandheldStore', () => {
    const args = { titleId: 'F71AC', titleName: 'Demo Racer', config: handheldStoreConfig(plain('h')) };

    it('strips ClientSecret wherever the service returns it, in any letter case', () => {
      const json = JSON.stringify(handheldStoreMessage(args));
      assertNoSecret(json, [SECRETS.ClientSecret]);
      assert.ok(!/clientsecret/i.test(json), 'no ClientSecret member or column at all');
      const stripped = stripClientSecrets({ a: [{ ClientSecret: 'x', CLIENTSECRET: 'y', keep: 1, deep: { clientSecret: 'z' } }] });
      assert.deepEqual(stripped, { a: [{ keep: 1, deep: {} }] });
    });

    it('masks a secret member\'s value wherever else the service echoes it, and other secret members by name', () => {
      const secret = 'hunter2-s3cret';
      const config = {
        Created: true,
        ApplicationID: `app ${secret}`,
        Environments: [{ ID: 'e1', ClientID: 'c1', ClientSecret: secret, Note: secret, client_secret: secret, SessionTicket: 'ticket-abc-123' }],
      } as unknown as HandheldStoreConfig;
      const json = JSON.stringify(handheldStoreMessage({ ...args, config }));
      assertNoSecret(json, [secret, 'ticket-abc-123']);
      assert.ok(json.includes('c1'));
    });

    it('strips ClientSecret even when it is not a string', () => {
      const config = { Created: true, Environments: [{ ID: 'e1', ClientID: 'c1', ClientSecret: { value: SECRETS.ClientSecret } }] } as unknown as HandheldStoreConfig;
      const json = JSON.stringify(handheldStoreMessage({ ...args, config }));
      assertNoSecret(json, [SECRETS.ClientSecret]);
      assert.ok(json.includes('c1'));
    });

    it('shows Created, ApplicationID and the three environment lists as ID/ClientID tables', () => {
      const config: HandheldStoreConfig = {
        Created: true,
        ApplicationID: '1234567890',
        Environments: [{ ID: 'prod', ClientID: 'client-prod', ClientSecret: null }],
        SubscriptionEnvironments: [],
      };
      const view = buildHandheldStoreView({ ...args, config });
      assert.deepEqual(allRows(view.blocks).slice(0, 2), [
        { label: 'Created', value: 'Yes' },
        { label: 'ApplicationID', value: '1234567890' },
      ]);
      const sections = view.blocks.filter((b) => b.kind === 'section');
      assert.deepEqual(sections.map((s) => s.heading), ['Environments', 'SubscriptionEnvironments', 'SecondarySubscriptionEnvironments']);
      const [env, sub, second] = sections.map((s) => s.blocks[0]);
      assert.deepEqual(env, { kind: 'table', caption: '', columns: ['ID', 'ClientID'], rows: [['prod', 'client-prod']], emptyText: 'Environments: none.' });
      assert.equal(sub.kind === 'table' && sub.rows.length, 0);
      assert.deepEqual(second, { kind: 'note', text: 'SecondarySubscriptionEnvironments: not returned' });
      assert.deepEqual(view.actions, ['refresh']);
    });

    it('says when the add-on is not set up', () => {
      const text = allText(buildHandheldStoreView({ ...args, config: { Created: false } }));
      assert.ok(text.includes('not set up'));
    });

    it('never throws on malformed configurations', () => {
      fc.assert(fc.property(fc.anything({ withNullPrototype: true, withBigInt: true }), (junk) => {
        const config = (typeof junk === 'object' && junk !== null ? junk : { Environments: junk }) as HandheldStoreConfig;
        assert.equal(handheldStoreMessage({ ...args, config }).type, 'render');
      }), { numRuns: 300 });
    });
  });

  describe('panel HTML and protocol', () => {
    it('locks the page down: default-src none, script by nonce only, no inline anything', () => {
      const nonce = newNonce();
      const html = panelHtml({ cspSource: 'https://cspsrc.test', nonce, scriptUri: 'https://cspsrc.test/p.js', styleUri: 'https://cspsrc.test/p.css', title: '<b>"Demo"</b>' });
      const csp = contentSecurityPolicy('https://cspsrc.test', nonce);
      assert.ok(csp.startsWith("default-src 'none'"));
      assert.ok(csp.includes(`script-src 'nonce-${nonce}'`));
      assert.ok(!csp.includes('unsafe'));
      assert.ok(html.includes(`<script nonce="${nonce}" src="https://cspsrc.test/p.js"></script>`));
      assert.ok(!html.includes('<b>'), 'title escaped');
      assert.equal((html.match(/<script/g) ?? []).length, 1);
    });

    it('makes a fresh, unguessable nonce each time', () => {
      const nonces = new Set(Array.from({ length: 50 }, () => newNonce()));
      assert.equal(nonces.size, 50);
      for (const n of nonces) assert.ok(Buffer.from(n, 'base64').length >= 16);
    });

    it('accepts only the page messages it knows', () => {
      assert.ok(isPageToHost({ type: 'ready' }));
      assert.ok(isPageToHost({ type: 'copy', field: 'EntityToken' }));
      assert.ok(isPageToHost({ type: 'refresh' }));
      assert.ok(!isPageToHost({ type: 'copy', field: 'SecretKey' }));
      assert.ok(!isPageToHost({ type: 'copy' }));
      assert.ok(!isPageToHost({ type: 'run', command: 'x' }));
      assert.ok(!isPageToHost('ready'));
      assert.ok(!isPageToHost(null));
    });
  });

  describe('a panel\'s total budget', () => {
    it('an 8 MB login result becomes a bounded panel that says it was clipped, with no secret in it', () => {
      const result = largeLoginResult(8_000_000, plain('v'));
      assert.ok(JSON.stringify(result).length > 8_000_000);
      const view = loginResultMessage({ titleId: 'F71AC', titleName: 'Demo Racer', result }).view;
      const posted = JSON.stringify(view);
      assert.ok(posted.length < 400_000, `the posted view is ${posted.length} characters`);
      assert.match(posted, /Clipped: this result is larger than a panel shows; [\d,]+ rows are not shown/);
      assert.match(posted, /Clipped: [\d,]+ more rows are not shown \(a panel shows at most 2,000 rows/);
      assertNoSecret(posted);
      // What a small result shows is untouched: no note.
      assert.doesNotMatch(JSON.stringify(loginResultMessage(args0()).view), /Clipped/);
    });

    it('the HandheldStore panel has the same budget', () => {
      const config = handheldStoreConfig(plain('h'));
      const envs = Array.from({ length: 40_000 }, (_, i) => ({ ID: `env-${i}`, ClientID: `client-${i}`.padEnd(150, 'c'), ClientSecret: SECRETS.ClientSecret }));
      const posted = JSON.stringify(handheldStoreMessage({ titleId: 'F71AC', titleName: 'Demo Racer', config: { ...config, Environments: envs } }).view);
      assert.ok(posted.length < 400_000, `the posted view is ${posted.length} characters`);
      assert.match(posted, /Clipped: /);
      assertNoSecret(posted);
    });

    it('one value longer than the budget is cut, never through a secret, and says how much is left out', () => {
      const result = loginResult(plain('v')) as LoginResult & { PlayerNote?: string };
      const long = 'x'.repeat(PANEL_CHARS - 9) + SECRETS.SessionTicket + 'y'.repeat(300_000);
      const view = buildLoginResultView({ titleId: 'F71AC', titleName: 'Demo Racer', result: { ...result, PlayerNote: long } as LoginResult });
      const posted = JSON.stringify(view);
      assertNoSecret(posted);
      assert.match(posted, /more characters\)/);
    });
  });

});
