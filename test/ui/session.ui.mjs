#!/usr/bin/env node
// The VS Code session of the test host and of the demo stays with VS Code: code-server's session
// cookie is host-only and browsers send a cookie to every port of its host, so another local
// listener reached by one top-level navigation would get it (and with it the workbench's
// WebSocket, a shell). Each run is served under a host name of its own, which the attack below
// cannot reach the cookie through.
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, startCodeServer } from '../../scripts/test-host/server.mjs';
import { assert, cookieCatcher, createRunner, runSuite, workbench } from './lib.mjs';

await runSuite('The VS Code session', async ({ cleanups }) => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());
  const t = createRunner('code-server session cookie');

  t.step('after login, another loopback listener reached by the browser gets no session cookie', async () => {
    const server = await startCodeServer();
    cleanups.push(() => server.stop());
    const catcher = await cookieCatcher();
    cleanups.push(catcher.stop);
    const page = await browser.newPage();
    await server.login(page);
    await page.goto(server.workbenchUrl());
    await workbench(page).waitReady();
    const session = (await page.context().cookies()).filter((c) => c.name.startsWith('code-server-session'));
    assert(session.length === 1, `the browser holds the session cookie after login: ${JSON.stringify(session.map((c) => c.domain))}`);
    // The attack: one top-level navigation to the other listener, by every loopback name a page can know.
    const hosts = ['127.0.0.1', 'localhost', '[::1]'];
    for (const host of hosts) {
      await page.goto(`http://${host}:${catcher.port}/`).catch(() => { /* ::1 may not be listened on */ });
    }
    const reached = catcher.seen.length;
    assert(reached >= 2, `the other listener was reached (${reached} requests)`);
    const leaked = catcher.seen.filter((r) => r.cookie.includes('code-server-session'));
    assert(leaked.length === 0, `the session cookie went to another listener: ${leaked.map((r) => r.host).join(', ')}`);
    assert(!new URL(server.origin).hostname.match(/^(127\.|localhost$)/), `the run has a host name of its own: ${server.origin}`);
    await page.close();
  });

  return { t };
});
