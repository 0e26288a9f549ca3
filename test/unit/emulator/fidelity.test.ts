// Where the emulator answered differently from the published service (api-facts.md), over real
// HTTP: an unknown path is a plain 404 (no service error code), so the client's 404 hint about the
// address applies instead of "check the input".
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import { DEMO_PLAYERS } from '../../../src/emulator/seed';
import { parseSeedText } from '../../../src/emulator/seedfile/seedFile';
import { Emu, MAIN } from './harness';

describe('emulator: fidelity to the published service', () => {
  let emu: Emu;
  before(async () => { emu = await Emu.start(); });
  after(() => emu.close());

  it('an unknown path answers 404 with no service error name or code', async () => {
    for (const path of [`/${MAIN.titleId}/Server/NoSuchOperation`, `/${MAIN.titleId}/Admin`, '/nothing/here/at/all']) {
      const r = await emu.raw(path, { headers: { 'Content-Type': 'application/json', 'X-SecretKey': MAIN.secretKey }, body: '{}' });
      assert.equal(r.status, 404, path);
      assert.equal(r.json.code, 404);
      assert.equal(r.json.error, undefined, `${path}: ${r.text}`);
      assert.equal(r.json.errorCode, undefined);
      assert.match(r.json.errorMessage, /No API at POST/);
    }
  });

  it('a client whose endpoint setting has a wrong path gets the 404 hint about the address, not "check the input"', async () => {
    const client = new PlatformClient({ titleId: MAIN.titleId, endpoint: `${emu.origin}/v2/{titleId}`, getSecretKey: () => Promise.resolve(MAIN.secretKey), retryBaseDelayMs: 1 });
    try {
      const e = await client.getPlayedTitleList(DEMO_PLAYERS[0].platformId).then(() => undefined, (x: unknown) => x);
      assert.ok(e instanceof PlatformError, String(e));
      assert.equal(e.kind, 'http');
      assert.equal(e.httpStatus, 404);
      assert.match(e.message, new RegExp(`Nothing answers POST /v2/${MAIN.titleId}/Admin/GetPlayedTitleList at this address \\(404 Not Found\\)`), 'the path that shows the mistake, in our own words');
      assert.match(e.hint, /serviceEndpoint setting.*emulator/);
      assert.doesNotMatch(e.hint, /Check the (input|fields)/);
    } finally {
      await client.close();
    }
  });

  it('the 404 shows the path it was sent to as it is, not masked, even where a segment looks like a key (it is our own text, from the endpoint setting)', async () => {
    const segment = 'tenant-Q7XK2M9PL4RT8WZ3BN6VC5HJ8D';
    const client = new PlatformClient({ titleId: MAIN.titleId, endpoint: `${emu.origin}/${segment}/{titleId}`, getSecretKey: () => Promise.resolve(MAIN.secretKey), retryBaseDelayMs: 1 });
    try {
      const e = await client.getPlayedTitleList(DEMO_PLAYERS[0].platformId).then(() => undefined, (x: unknown) => x);
      assert.ok(e instanceof PlatformError, String(e));
      assert.ok(e.message.includes(`Nothing answers POST /${segment}/${MAIN.titleId}/Admin/GetPlayedTitleList at this address (404 Not Found).`), e.message);
      assert.ok(!e.message.includes(MAIN.secretKey));
    } finally {
      await client.close();
    }
  });

  it('a title seeded with allowNonUniqueDisplayNames answers AccountNotFound to every TitleDisplayName lookup; another title finds the name', async () => {
    const spec = parseSeedText(JSON.stringify({
      titles: [{ titleId: 'D15A', name: 'Shared Names', secretKey: 'SHAREDNAMESKEY0123456789', allowNonUniqueDisplayNames: true }, { titleId: 'E2B0', name: 'Unique Names', secretKey: 'UNIQUENAMESKEY0123456789' }],
      players: [{ titles: { D15A: { displayName: 'Ace' }, E2B0: { displayName: 'Ace' } } }],
    }), 'the test seed');
    const named = await Emu.start({ seed: { name: 'object', spec } });
    try {
      const ask = (titleId: string, key: string) => named.raw(`/${titleId}/Admin/GetUserAccountInfo`, {
        headers: { 'Content-Type': 'application/json', 'X-SecretKey': key }, body: { TitleDisplayName: 'Ace' },
      });
      const shared = await ask('D15A', 'SHAREDNAMESKEY0123456789');
      assert.equal(shared.json.error, 'AccountNotFound', shared.text);
      const unique = await ask('E2B0', 'UNIQUENAMESKEY0123456789');
      assert.equal(unique.status, 200, unique.text);
    } finally {
      await named.close();
    }
  });
});
