// A launcher IdentityToken is a secret wherever it goes, whatever its shape: an opaque token that
// no pattern recognises (not a JWT, not random-looking) is masked because the client saw it sent.
import * as assert from 'node:assert/strict';
import { PlatformClient, type RequestLogEntry } from '../../../src/core/api/client';
import { redactObject, secretMemberValues } from '../../../src/core/redact';
import { rejection } from '../helpers/rejection';
import { fail, startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer';

const OPAQUE = 'ana-launcher-session-for-racing';

describe('core: IdentityToken masking', () => {
  let server: ScriptedServer;
  before(async () => { server = await startScriptedServer(); });
  after(async () => { await server.close(); });

  it('an opaque IdentityToken the service echoes back reaches neither the error nor the request log', async () => {
    const log: RequestLogEntry[] = [];
    const client = new PlatformClient({
      titleId: 'F71AC', endpoint: server.endpoint, getSecretKey: async () => 'SECRETKEY0123456789ABCDEFGHIJKLMNOP', onRequest: (e) => log.push(e), maxRetries: 0,
    });
    server.queue('Server/LoginWithLauncher', fail(400, 'InvalidAuthToken', 1326, {
      errorMessage: `token ${OPAQUE} is not valid`, errorDetails: { IdentityToken: [`${OPAQUE} expired`] },
    }));
    try {
      const e = await rejection(client.loginWithLauncher({ IdentityToken: OPAQUE }));
      assert.equal(e.errorCode, 1326);
      assert.equal(server.count('Server/LoginWithLauncher'), 1);
      assert.ok(JSON.stringify(server.requests.at(-1)?.json).includes(OPAQUE), 'the service did get the token');
      const everything = JSON.stringify({ message: e.message, errorMessage: e.errorMessage, details: e.errorDetails, stack: e.stack, log });
      assert.ok(!everything.includes(OPAQUE), `identity token leaked: ${everything.slice(0, 400)}`);
      assert.match(e.errorMessage ?? '', /^token •{8}\w{4} is not valid$/);
    } finally {
      await client.close();
    }
  });

  it('an IdentityToken member is masked and collected as a secret under any letter case, whatever its shape', () => {
    const answer = { Login: { identitytoken: OPAQUE, Name: 'ana' }, IDENTITYTOKEN: 'short' };
    const out = redactObject(answer);
    assert.equal(out.Login.identitytoken, `••••••••${OPAQUE.slice(-4)}`);
    assert.equal(out.IDENTITYTOKEN, '••••••••');
    assert.equal(out.Login.Name, 'ana');
    assert.deepEqual(secretMemberValues(answer).sort(), [OPAQUE, 'short'].sort());
  });
});
