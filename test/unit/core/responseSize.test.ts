// The client's limit on an answer's size (8 MB): an answer of exactly the limit is read, one byte
// more is refused as malformed without being kept; and what every request says it accepts.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { MAX_RESPONSE_BYTES } from '../../../src/core/api/exchange';
import { rejection } from '../helpers/rejection';
import { startScriptedServer, type ScriptedServer } from '../helpers/scriptedServer';

const ROUTE = 'Admin/GetPlayedTitleList';

/** A valid GetPlayedTitleList answer padded to exactly `bytes` bytes. */
function answerOf(bytes: number): string {
  const head = '{"code":200,"status":"OK","data":{"TitleIds":["F71AC"]},"pad":"';
  const tail = '"}';
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}

describe('core: the size of an answer', () => {
  let server: ScriptedServer;
  let client: PlatformClient;
  before(async () => {
    server = await startScriptedServer();
    client = new PlatformClient({ titleId: 'F71AC', endpoint: server.endpoint, getSecretKey: async () => 'SECRETKEY0123456789ABCDEFGHIJKLMNOP', maxRetries: 0, timeoutMs: 30_000 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('reads an answer of exactly the limit, and sends JSON saying it accepts JSON', async () => {
    server.queue(ROUTE, { status: 200, headers: { 'content-type': 'application/json' }, body: answerOf(MAX_RESPONSE_BYTES) });
    assert.deepEqual((await client.getPlayedTitleList('9437A5ADDAE3012D')).TitleIds, ['F71AC']);
    const req = server.requests.at(-1)!;
    assert.equal(req.headers.accept, 'application/json');
    assert.equal(req.headers['content-type'], 'application/json');
  });

  it('refuses an answer one byte over the limit as malformed, naming the limit', async () => {
    server.queue(ROUTE, { status: 200, headers: { 'content-type': 'application/json' }, body: answerOf(MAX_RESPONSE_BYTES + 1) });
    const e = await rejection(client.getPlayedTitleList('9437A5ADDAE3012D'));
    assert.equal(e.kind, 'malformed');
    assert.match(e.message, /GetPlayedTitleList: the service's answer is larger than 8 MB/);
    assert.equal(e.hint, 'Check the service endpoint setting.');
  });
});
