// The played-title checks' pacing (core/playedTitles.ts), in process: a fake service that throttles
// like a fixed window (4 requests a second, then 429 with Retry-After until the window ends). The
// promise: after a 429 no request is sent before its Retry-After, and the players after it are not
// failed (the pacer settles under what the service took); only the throttled player itself is.
import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/api/errors';
import type { GetPlayedTitleListResult } from '../../../src/core/api/types';
import { checkPlayedTitles, type PlayedTitlesClient } from '../../../src/core/playedTitles';

const LIMIT = 4;
const WINDOW_MS = 1000;

interface Sent { id: string; at: number; throttled?: { answeredAt: number; retryAfterSeconds: number } }

/** A service allowing LIMIT requests per fixed window from its first request; the rest get 429 until the window ends. */
function fixedWindowService(): PlayedTitlesClient & { sent: Sent[] } {
  const sent: Sent[] = [];
  let start: number | undefined;
  const counts = new Map<number, number>();
  return {
    sent,
    async getPlayedTitleList(id: string): Promise<GetPlayedTitleListResult> {
      const at = performance.now();
      const entry: Sent = { id, at };
      sent.push(entry);
      start ??= at;
      const win = Math.floor((at - start) / WINDOW_MS);
      const n = (counts.get(win) ?? 0) + 1;
      counts.set(win, n);
      await new Promise((r) => setImmediate(r));
      if (n > LIMIT) {
        const retryAfterSeconds = Math.ceil((start + (win + 1) * WINDOW_MS - at) / 1000);
        entry.throttled = { answeredAt: performance.now(), retryAfterSeconds };
        throw new PlatformError({ kind: 'throttled', message: 'GetPlayedTitleList failed: throttled', hint: 'wait', httpStatus: 429, retryAfterSeconds });
      }
      return { TitleIds: ['T1'] } as GetPlayedTitleListResult;
    },
  };
}

describe('core/checkPlayedTitles: pacing against a service that throttles', () => {
  it('after a 429 nothing is sent before Retry-After, and only the throttled player fails: the players after it are found', async () => {
    const service = fixedWindowService();
    const ids = Array.from({ length: 10 }, (_, i) => `P${i}`);
    const checked = await checkPlayedTitles(service, ids);

    const throttled = service.sent.filter((s) => s.throttled !== undefined);
    assert.ok(throttled.length >= 1, 'the service throttled the slow start (the test exercises a 429)');
    for (const t of throttled) {
      const until = t.throttled!.answeredAt + t.throttled!.retryAfterSeconds * 1000;
      const early = service.sent.filter((s) => s.at > t.throttled!.answeredAt && s.at < until);
      assert.deepEqual(early.map((s) => s.id), [], `sent after ${t.id}'s 429 and before its Retry-After`);
    }
    const firstAnswer = Math.min(...throttled.map((t) => t.throttled!.answeredAt));
    const failed = [...checked].filter(([, c]) => c.status === 'failed').map(([id]) => id);
    assert.deepEqual(failed, throttled.map((t) => t.id), 'the failed players are the throttled ones');
    for (const s of service.sent.filter((x) => x.at > firstAnswer)) {
      assert.deepEqual(checked.get(s.id), { status: 'found', titleIds: ['T1'] }, `${s.id}, sent after the first 429, is found`);
    }
    assert.equal(checked.size, ids.length);
    assert.ok(failed.length < ids.length - LIMIT, `fewer players fail than the ${ids.length - LIMIT} past the first window: ${failed.length}`);
  });
});
