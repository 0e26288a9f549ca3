// The emulator's test controls from the unit suites: one client for all of them.
import * as assert from 'node:assert/strict';
import { controlHeaders } from '../../../src/core/controlToken';

/** POSTs `body` (GET without one) to /_emulator/`path` on `origin`; the JSON answer, which must be a 200. */
// Tests read fields freely from control answers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function emulatorControl(origin: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${origin}/_emulator/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...controlHeaders(origin) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json: unknown = await res.json();
  assert.equal(res.status, 200, `emulator control ${path}: ${JSON.stringify(json)}`);
  return json;
}
