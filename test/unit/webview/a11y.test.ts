// Accessibility of both panel pages in real headless Chromium: axe-core over every state a
// panel shows, in the colours of VS Code's built-in themes (the --vscode-* variables and body
// class the workbench gives a webview, and its default stylesheet, which colours <code>);
// then what a screen reader and a keyboard user meet: masked values, the live status line,
// focus kept on Refresh / Try again.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { HandheldStoreConfig, LoginResult } from '../../../src/core/api/types';
import { handheldStoreMessage } from '../../../src/extension/views/handheldStoreView';
import { newNonce, panelHtml } from '../../../src/extension/views/html';
import { loginResultMessage } from '../../../src/extension/views/loginResultView';
import type { HostToPage, PageToHost, PanelKind } from '../../../src/webview/protocol';
import { handheldStoreConfig, loginResult } from './fixtures';
import { KINDS, ROOT, useChromium } from './browser';
import { THEMES, VSCODE_DEFAULT_STYLES, type Theme } from './themes';

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** The fake VS Code API: what the page posts is kept in window.__posted. */
const HARNESS = `(() => {
  window.__posted = [];
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => null, setState: () => {} });
  window.__dispatch = (m) => window.dispatchEvent(new MessageEvent('message', { data: m }));
})();`;

interface AxeResult { violations: { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary: string }[] }[] }
interface TestWindow { __posted: PageToHost[]; __dispatch(m: HostToPage): void; axe: { run(opts: unknown): Promise<AxeResult> } }

/** The page as the host makes it, styled as the workbench styles a webview in `theme`. */
function themedHtml(origin: string, kind: PanelKind, theme: Theme): string {
  const vars = Object.entries(theme.vars).map(([k, v]) => `--vscode-${k}: ${v};`).join(' ');
  return panelHtml({
    cspSource: origin, nonce: newNonce(), title: kind === 'handheldStore' ? 'HandheldStore: Demo Racer' : 'Login: Demo Racer',
    scriptUri: `${origin}/dist/webview/${kind}.js`, styleUri: `${origin}/media/panel.css`,
  }).replace('<head>', `<head><style>${VSCODE_DEFAULT_STYLES} html { ${vars} }</style>`)
    .replace('<body>', `<body class="${theme.bodyClass}">`);
}

/** The themed pages, the bundles and the css. */
function serve(req: IncomingMessage, res: ServerResponse): void {
  const origin = `http://${req.headers.host ?? ''}`;
  const url = new URL(req.url ?? '/', origin);
  const [, first, second] = url.pathname.split('/');
  let body: string | Buffer | undefined;
  let type = 'text/html; charset=utf-8';
  const theme = THEMES.find((t) => t.id === first);
  if (theme && KINDS.includes(second as PanelKind)) {
    body = themedHtml(origin, second as PanelKind, theme);
  } else if (url.pathname === '/media/panel.css') {
    body = readFileSync(join(ROOT, 'media', 'panel.css'));
    type = 'text/css';
  } else if (first === 'dist' && KINDS.some((k) => url.pathname === `/dist/webview/${k}.js`)) {
    body = readFileSync(join(ROOT, url.pathname.slice(1)));
    type = 'text/javascript';
  }
  res.writeHead(body === undefined ? 404 : 200, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body ?? 'not found');
}

const dispatch = (page: Page, msg: HostToPage): Promise<void> =>
  page.evaluate((m) => (globalThis as unknown as TestWindow).__dispatch(m), msg);

function message(kind: PanelKind): HostToPage {
  let n = 0;
  const s = (): string => `value-${n++}`;
  return kind === 'loginResult'
    ? loginResultMessage({ titleId: 'F71AC', titleName: 'Demo Racer', result: loginResult(s) })
    : handheldStoreMessage({ titleId: 'F71AC', titleName: 'Demo Racer', config: handheldStoreConfig(s) });
}

/** The same panel with every list empty: each table is replaced by its heading and "none". */
function emptyTables(kind: PanelKind): HostToPage {
  let n = 0;
  const s = (): string => `value-${n++}`;
  if (kind === 'handheldStore') {
    return handheldStoreMessage({ titleId: 'F71AC', titleName: 'Demo Racer', config: { Created: true, Environments: [], SubscriptionEnvironments: [] } as HandheldStoreConfig });
  }
  const result = loginResult(s) as unknown as Record<string, Record<string, unknown>>;
  result.TreatmentAssignment = { Variables: [], Variants: [] };
  (result.InfoResultPayload.PlayerProfile as Record<string, unknown>).ExperimentVariants = [];
  return loginResultMessage({ titleId: 'F71AC', titleName: 'Demo Racer', result: result as unknown as LoginResult });
}

describe('webview pages: accessibility in every built-in theme', function () {
  this.timeout(120_000);
  const chrome = useChromium(serve);

  async function open(kind: PanelKind, theme: Theme = THEMES[0]): Promise<Page> {
    // The CSP is bypassed only so the test can inject axe; the page's own scripts load as in VS Code.
    const context = await chrome.browser.newContext({ bypassCSP: true, viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    await page.addInitScript(HARNESS);
    await page.goto(`${chrome.origin}/${theme.id}/${kind}`);
    await page.waitForFunction(() => (globalThis as unknown as TestWindow).__posted.length > 0, undefined, { timeout: 10_000 });
    return page;
  }

  async function axe(page: Page): Promise<string[]> {
    await page.evaluate(AXE);
    const result = await page.evaluate(() => (globalThis as unknown as TestWindow).axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    }));
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}: ${n.failureSummary}`));
  }

  for (const theme of THEMES) {
    for (const kind of KINDS) {
      it(`${kind} in ${theme.name}: axe finds no violation, loaded, with an error over it, and failed before anything came`, async () => {
        const page = await open(kind, theme);
        try {
          await dispatch(page, message(kind));
          await dispatch(page, { type: 'status', message: 'Copied the session ticket to the clipboard.' });
          assert.deepEqual(await axe(page), [], 'loaded');
          await dispatch(page, emptyTables(kind));
          assert.deepEqual(await axe(page), [], 'with empty tables (their headings one level under the section\'s)');
          await dispatch(page, { type: 'error', message: 'Request timed out.\nTry again later.' });
          assert.deepEqual(await axe(page), [], 'an error over the last view');
          await page.reload();
          await page.waitForFunction(() => (globalThis as unknown as TestWindow).__posted.length > 0, undefined, { timeout: 10_000 });
          await dispatch(page, { type: 'error', message: 'connect ECONNREFUSED 127.0.0.1:9' });
          assert.deepEqual(await axe(page), [], 'failed before anything came');
        } finally {
          await page.context().close();
        }
      });
    }
  }

  it('a masked value reads "masked, ends in …", its bullets hidden from screen readers', async () => {
    const page = await open('loginResult');
    try {
      await dispatch(page, message('loginResult'));
      const snapshot = await page.locator('main').ariaSnapshot();
      assert.doesNotMatch(snapshot, /••/, snapshot);
      const tails = [...snapshot.matchAll(/masked, ends in (\S{4})/g)].map((m) => m[1]);
      assert.ok(tails.length >= 2, snapshot);
      // On screen the bullets and the same four characters stay.
      // What is on screen: the text without the visually hidden parts.
      const shown = await page.evaluate<string>(`(() => {
        const copy = document.getElementById('app').cloneNode(true);
        for (const hidden of copy.querySelectorAll('.visually-hidden')) hidden.remove();
        return copy.textContent;
      })()`);
      for (const t of tails) assert.ok(shown.includes(`••••••••${t}`), `${t} not shown after the bullets`);
    } finally {
      await page.context().close();
    }
  });

  it('in a narrow panel the Copy buttons keep their label on one line', async () => {
    const page = await open('loginResult');
    try {
      await page.setViewportSize({ width: 260, height: 700 });
      await dispatch(page, message('loginResult'));
      const heights = await page.locator('#app button').evaluateAll((bs) => bs.map((b) => [b.textContent, Math.round(b.getBoundingClientRect().height)]));
      const oneLine = heights.find(([label]) => label === 'Open as JSON')![1];
      for (const [label, h] of heights) assert.ok(Number(h) <= Number(oneLine), `${String(label)} is ${String(h)}px high, one line is ${String(oneLine)}px`);
      assert.ok(heights.filter(([label]) => label === 'Copy').length >= 2);
    } finally {
      await page.context().close();
    }
  });

  it('in a narrow panel no word breaks mid-word (only a masked value beside its Copy button may break anywhere)', async () => {
    for (const kind of KINDS) {
      const page = await open(kind);
      try {
        // Narrow, yet wide enough for the longest member name in a heading (SecondarySubscriptionEnvironments).
        await page.setViewportSize({ width: 360, height: 700 });
        await dispatch(page, message(kind));
        // Each word of letters (3 or more) outside a masked value: on how many lines it lies.
        const broken = await page.evaluate<string[]>(`(() => {
          const out = [];
          const walker = document.createTreeWalker(document.getElementById('app'), NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (n.parentElement.closest('dd.secret, .visually-hidden')) continue;
            for (const m of n.textContent.matchAll(/[A-Za-z]{3,}/g)) {
              const r = document.createRange();
              r.setStart(n, m.index);
              r.setEnd(n, m.index + m[0].length);
              const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
              if (lines.size > 1) out.push(m[0] + ' in <' + n.parentElement.tagName.toLowerCase() + '> ' + JSON.stringify(n.textContent.slice(0, 60)));
            }
          }
          return out;
        })()`);
        assert.deepEqual(broken, [], `${kind}: words broken across lines`);
        // A table wider than the panel scrolls in its own box, reachable by keyboard; the page itself does not scroll sideways.
        assert.deepEqual(await axe(page), [], `${kind} at 360 px`);
        const [scroll, client] = await page.evaluate<number[]>('[document.getElementById("app").scrollWidth, document.getElementById("app").clientWidth]');
        const wide = await page.evaluate<string[]>(`[...document.querySelectorAll('#app *')].filter((e) => e.getBoundingClientRect().right > document.getElementById('app').getBoundingClientRect().right + 1).map((e) => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 40)).slice(0, 8)`);
        assert.ok(scroll <= client, `${kind}: the content is ${scroll}px wide in ${client}px: ${wide.join(' | ')}`);
      } finally {
        await page.context().close();
      }
    }
  });

  it('a confirmation from the host is announced in the role=status line; the redrawn content is not a live region', async () => {
    const page = await open('loginResult');
    try {
      await dispatch(page, message('loginResult'));
      await dispatch(page, { type: 'status', message: 'Copied the session ticket to the clipboard.' });
      assert.equal(await page.getByRole('status').innerText(), 'Copied the session ticket to the clipboard.');
      assert.equal(await page.locator('#app, main').evaluateAll((els) => els.filter((e) => e.hasAttribute('aria-live')).length), 0);
    } finally {
      await page.context().close();
    }
  });

  it('Try again and Refresh by keyboard keep focus on the button, and the status line says what happened', async () => {
    const page = await open('handheldStore');
    const focused = (): Promise<string> => page.evaluate<string>("document.activeElement?.textContent ?? ''");
    try {
      await dispatch(page, { type: 'error', message: 'connect ECONNREFUSED 127.0.0.1:9' });
      assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'HandheldStore: Demo Racer');
      await page.getByRole('button', { name: 'Try again' }).focus();
      await page.keyboard.press('Enter');
      assert.equal(await focused(), 'Refreshing…');
      assert.equal(await page.getByRole('status').innerText(), 'Refreshing…');
      await dispatch(page, message('handheldStore'));
      assert.equal(await focused(), 'Refresh', 'the answer replaced Try again: focus moves to Refresh, not the body');
      assert.equal(await page.getByRole('status').innerText(), 'Refreshed.');

      await page.keyboard.press('Enter');
      assert.equal(await focused(), 'Refreshing…');
      await page.keyboard.press('Enter');
      await dispatch(page, message('handheldStore'));
      assert.equal(await focused(), 'Refresh');
      const refreshes = await page.evaluate(() => (globalThis as unknown as TestWindow).__posted.filter((m) => m.type === 'refresh').length);
      assert.equal(refreshes, 2, 'Enter on a busy Refresh sent nothing more');
    } finally {
      await page.context().close();
    }
  });
});
