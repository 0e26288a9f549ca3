// LoginWithLauncher's request as sent: InfoRequestParameters and its ProfileConstraints carry
// every flag of the published description, false unless the caller asked for it.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { INFO_REQUEST_FLAGS, PROFILE_CONSTRAINT_FLAGS } from '../../../src/core/api/operations';
import { rejection } from '../helpers/rejection';
import { fail, startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer';

const ROUTE = 'Server/LoginWithLauncher';

describe('core: the launcher login request as sent', () => {
  let server: ScriptedServer;
  let client: PlatformClient;
  before(async () => {
    server = await startScriptedServer();
    // The answer does not matter here: what was sent does.
    server.setDefault(ROUTE, fail(400, 'InvalidAuthToken', 1326));
    client = new PlatformClient({ titleId: 'F71AC', endpoint: server.endpoint, getSecretKey: async () => 'SECRETKEY0123456789ABCDEFGHIJKLMNOP', maxRetries: 0 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const sent = async (r: Parameters<PlatformClient['loginWithLauncher']>[0]): Promise<Record<string, unknown>> => {
    await rejection(client.loginWithLauncher(r));
    return server.requests.at(-1)!.json as Record<string, unknown>;
  };

  it('completes InfoRequestParameters and ProfileConstraints with every flag, false unless asked for; keeps the rest', async () => {
    const body = await sent({
      IdentityToken: 'a.b.c', CreateAccount: true,
      InfoRequestParameters: { GetPlayerProfile: true, ProfileConstraints: { ShowDisplayName: true } },
    });
    const info = body.InfoRequestParameters as Record<string, unknown>;
    assert.deepEqual(Object.fromEntries(INFO_REQUEST_FLAGS.map((f) => [f, info[f]])), Object.fromEntries(INFO_REQUEST_FLAGS.map((f) => [f, f === 'GetPlayerProfile'])));
    assert.deepEqual(info.ProfileConstraints, Object.fromEntries(PROFILE_CONSTRAINT_FLAGS.map((f) => [f, f === 'ShowDisplayName'])));
    assert.equal(body.CreateAccount, true);
    assert.equal(body.IdentityToken, 'a.b.c');
  });

  it('sends no ProfileConstraints when none were given, and no InfoRequestParameters when none were', async () => {
    const withInfo = await sent({ IdentityToken: 'a.b.c', InfoRequestParameters: { GetUserData: true } });
    assert.equal('ProfileConstraints' in (withInfo.InfoRequestParameters as object), false);
    assert.equal((withInfo.InfoRequestParameters as Record<string, unknown>).GetUserData, true);
    const bare = await sent({ IdentityToken: 'a.b.c' });
    assert.equal('InfoRequestParameters' in bare, false);
  });
});
