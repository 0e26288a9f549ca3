// Property tests: hostile or random input never crashes core's parsers and never leaks a secret.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseEnvelope } from '../../../src/core/api/envelope';
import { checkResult } from '../../../src/core/api/exchange';
import { OPERATIONS, type OperationName } from '../../../src/core/api/operations';
import { PlatformError } from '../../../src/core/api/errors';
import { buildBaseUrl, validateEndpointTemplate } from '../../../src/core/api/endpoint';
import { findPlatformIds, isPlatformId, parseIdList, platformIdAt, validateTitleId } from '../../../src/core/ids';
import { redactObject, redactText } from '../../../src/core/redact';

/** Every row's result check, as the client applies it. */
const allValidators: ((d: unknown) => unknown)[] = (Object.keys(OPERATIONS) as OperationName[]).map((n) => (d: unknown) => checkResult(n, d));

const envelopeLike = fc.record({
  code: fc.oneof(fc.constantFrom(200, 400, 429, 503), fc.jsonValue()),
  data: fc.jsonValue(),
  errorCode: fc.option(fc.oneof(fc.integer(), fc.jsonValue()), { nil: undefined }),
  errorDetails: fc.option(fc.jsonValue(), { nil: undefined }),
  retryAfterSeconds: fc.option(fc.jsonValue(), { nil: undefined }),
}, { requiredKeys: [] });

describe('core properties', () => {
  it('parseEnvelope only ever returns or throws a PlatformError, for any body and status', () => {
    fc.assert(fc.property(
      fc.oneof(fc.string(), fc.json(), envelopeLike.map((x) => JSON.stringify(x))),
      fc.integer({ min: 100, max: 599 }),
      fc.constantFrom(...allValidators),
      (body, httpStatus, validate) => {
        try {
          parseEnvelope('Op', { httpStatus, body }, validate);
        } catch (e) {
          assert.ok(e instanceof PlatformError, String(e));
          assert.ok(e.message.length > 0 && e.hint.length > 0);
        }
      },
    ), { numRuns: 2000 });
  });

  it('redactText and redactObject never let a known secret through', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9+/=_-]{8,60}$/);
    fc.assert(fc.property(fc.string(), secret, fc.string(), (before, key, after) => {
      const text = `${before}${key}${after}${key}`;
      assert.ok(!redactText(text, [key]).includes(key));
      assert.ok(!JSON.stringify(redactObject({ a: [text], b: { c: text } }, [key])).includes(key));
    }), { numRuns: 1000 });
  });

  it('every ID found in text is a word-bounded PlatformId that platformIdAt finds again', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.stringMatching(/^[0-9A-F]{12,18}$/),
      fc.constantFrom(' ', '#', '_', '\n', ',', 'x'),
    );
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const text = pieces.join('');
      for (const { id, index } of findPlatformIds(text)) {
        assert.ok(isPlatformId(id));
        assert.equal(text.slice(index, index + id.length), id);
        assert.ok(!/[0-9A-Za-z_]/.test(text[index - 1] ?? ' ') && !/[0-9A-Za-z_]/.test(text[index + id.length] ?? ' '));
        assert.deepEqual(platformIdAt(text, index + 1), { id, start: index, end: index + id.length });
      }
    }), { numRuns: 1000 });
  });

  it('parseIdList gives trimmed, non-empty entries', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      for (const id of parseIdList(s)) {
        assert.ok(id.length > 0 && id === id.trim() && !/[\r\n,]/.test(id));
      }
    }));
  });

  it('a URL is only ever built for a valid title ID and template, and keeps the template host', () => {
    const template = fc.oneof(
      fc.constantFrom('https://{titleId}.example.net', 'http://127.0.0.1:8080/{titleId}'),
      fc.string().map((s) => `https://{titleId}.${s}`),
      fc.string().map((s) => `http://127.0.0.1:1/${s}{titleId}`),
    );
    fc.assert(fc.property(template, fc.oneof(fc.string(), fc.stringMatching(/^[0-9A-F]{4,6}$/)), (t, id) => {
      let url: URL;
      try {
        url = buildBaseUrl(t, id);
      } catch (e) {
        assert.ok(e instanceof PlatformError && e.kind === 'validation');
        assert.ok(validateTitleId(id) !== undefined || validateEndpointTemplate(t) !== undefined);
        return;
      }
      assert.equal(validateTitleId(id), undefined);
      assert.equal(validateEndpointTemplate(t), undefined);
      const probe = new URL(t.replace('{titleId}', 'ABCD'));
      assert.ok(url.host === probe.host || url.host.endsWith(probe.host.slice(4)));
      assert.equal(url.username + url.password + url.search + url.hash, '');
    }), { numRuns: 2000 });
  });
});
