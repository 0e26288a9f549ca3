// Helpers for the UI tests: the emulator as a separate process, a tiny step runner, and
// workbench actions done the way a person does them (clicks, keys, real quick inputs).
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, REPO_ROOT } from '../../scripts/test-host/server.mjs';

export { startEmulatorProcess } from '../../scripts/demo/emulatorProcess.mjs';

export const RESULTS_DIR = join(REPO_ROOT, 'test-results', 'ui');
export const TIMEOUT = 20_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs steps in order; after a failure the rest are reported as not run. */
export function createRunner(name) {
  const steps = [];
  return {
    step(title, fn) { steps.push({ title, fn }); },
    /** @returns {Promise<{ passed: number, failed: number, notRun: number }>} */
    async run({ onFailure } = {}) {
      let passed = 0;
      let failed = 0;
      let notRun = 0;
      console.log(`\n${name}`);
      for (const s of steps) {
        if (failed > 0) {
          notRun++;
          console.log(`  - ${s.title} (not run: an earlier step failed)`);
          continue;
        }
        const started = Date.now();
        try {
          await s.fn();
          passed++;
          console.log(`  ✔ ${s.title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        } catch (e) {
          failed++;
          console.log(`  ✘ ${s.title}\n    ${(e && e.stack) || e}`.replace(/\n/g, '\n    '));
          if (onFailure) await onFailure(s.title).catch((err) => console.log(`    (failure screenshot: ${err.message})`));
        }
      }
      return { passed, failed, notRun };
    },
  };
}

/**
 * Runs one UI suite as a program: `define({ results, cleanups })` starts what the suite needs
 * (pushing a stop function for each onto `cleanups`) and returns its runner and a failure hook.
 * Prints `N passed, M failed`, stops everything started (also on SIGINT/SIGTERM) and exits 0
 * only when every step passed.
 */
export async function runSuite(name, define) {
  const results = ensureResultsDir();
  const started = Date.now();
  const cleanups = [];
  let exitCode = 1;
  const cleanup = async () => {
    while (cleanups.length) await cleanups.pop()().catch((e) => console.error(`cleanup: ${e.message}`));
  };
  for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
    process.once(sig, () => { console.log(`${sig}: stopping`); void cleanup().finally(() => process.exit(code)); });
  }
  try {
    const { t, onFailure } = await define({ results, cleanups });
    const { passed, failed, notRun } = await t.run({ onFailure });
    console.log(`\n${passed} passed, ${failed + notRun} failed${notRun ? ` (${notRun} not run after a failure)` : ''} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    exitCode = failed + notRun === 0 && passed > 0 ? 0 : 1;
  } catch (e) {
    console.error(`${name} could not run: ${e.stack || e}`);
    console.log('0 passed, 1 failed');
  } finally {
    await cleanup();
  }
  process.exit(exitCode);
}

export function slug(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
}

export function ensureResultsDir() {
  mkdirSync(RESULTS_DIR, { recursive: true });
  return RESULTS_DIR;
}

/** Polls `fn` until it returns a truthy value (returned) or the deadline passes (throws `what`). */
export async function poll(what, fn, timeoutMs = TIMEOUT, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) { last = e; }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await sleep(everyMs);
  }
}

/** A second loopback listener on a port of its own: records the Host and Cookie of every request it gets. */
export async function cookieCatcher() {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push({ host: req.headers.host ?? '', cookie: req.headers.cookie ?? '' });
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other listener</title><p>other listener</p>');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { port: server.address().port, seen, stop: () => new Promise((r) => server.close(r)) };
}

export function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

/** Workbench actions on one page. */
/**
 * Headless Chromium logged in to `server`'s workbench: the page, its workbench actions and a
 * screenshot function writing into `results`; everything it starts is pushed to `cleanups`.
 */
export async function openWorkbench(server, results, cleanups) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1400, height: 860 }, deviceScaleFactor: 1 });
  await server.login(context);
  const page = await context.newPage();
  const shot = async (name) => {
    // Scrolling elements into view for clicks can shift the whole workbench by a few pixels; put it back.
    await page.evaluate(() => { document.scrollingElement?.scrollTo(0, 0); document.querySelector('.monaco-workbench')?.scrollTo(0, 0); });
    await page.screenshot({ path: join(results, `${name}.png`) });
  };
  return { page, wb: workbench(page), shot };
}

export function workbench(page) {
  const quickInput = page.locator('.quick-input-widget');
  const wb = {
    page,
    quickInput,
    async waitReady() {
      await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
      await page.locator('.statusbar').waitFor({ timeout: 60_000 });
      await wb.waitActivated();
    },
    /** Waits until the status bar no longer says "Activating Extensions...". */
    async waitActivated() {
      await poll('extensions to finish activating', async () =>
        !(await page.locator('.statusbar').innerText()).includes('Activating Extensions'), 60_000);
    },
    /** Shows the side bar view container `label` (clicking its activity bar entry unless it is already shown). */
    async openActivity(label) {
      const title = page.locator('.part.sidebar .composite.title');
      if (await title.isVisible() && (await title.innerText()).startsWith(label)) return;
      const item = page.locator(`.activitybar [role="tab"][aria-label^="${label}"], .activitybar .action-item a[aria-label^="${label}"]`).first();
      await item.click({ timeout: TIMEOUT });
      await poll(`the ${label} side bar`, async () => (await title.isVisible()) && (await title.innerText()).startsWith(label));
    },
    /** F1, type the command, pick the exact entry. */
    async runCommand(label) {
      // F1 can be swallowed while a modal editor or dialog has focus: Escape and try again.
      await poll('the Command Palette', async () => {
        await page.keyboard.press('F1');
        if (await quickInput.waitFor({ state: 'visible', timeout: 2000 }).then(() => true, () => false)) return true;
        await page.keyboard.press('Escape');
        return false;
      });
      await page.locator('.quick-input-box input').fill(`>${label}`);
      const row = quickInput.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: label }) }).first();
      await row.waitFor({ timeout: TIMEOUT });
      await row.click();
    },
    /** Waits for a quick input whose title contains `title`; returns its input element. */
    async quickInputTitled(title, timeoutMs = TIMEOUT) {
      await quickInput.waitFor({ state: 'visible', timeout: timeoutMs });
      await poll(`a quick input titled "${title}"`, async () => (await quickInput.locator('.quick-input-title').innerText()).includes(title), timeoutMs);
      return page.locator('.quick-input-box input');
    },
    async quickInputMessage() {
      return (await quickInput.locator('.quick-input-message').innerText().catch(() => '')).trim();
    },
    async quickPick(label) {
      const row = quickInput.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: label }) }).first();
      await row.waitFor({ timeout: TIMEOUT });
      await row.click();
    },
    /** A tree row of a view by its label (exact). */
    treeRow(label) {
      return page.locator('.monaco-list-row[role="treeitem"]', { has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(label)}$`) }) }).first();
    },
    /**
     * Expands the tree row `label` and returns once the row itself says it is expanded. A click can
     * land on another row while the tree is still re-rendering (titles being added: the list reuses
     * its row elements), so the row's own aria-expanded decides, and a row still collapsed is
     * clicked again (bounded by poll's time-out).
     */
    async expandTreeRow(label) {
      const row = wb.treeRow(label);
      await poll(`tree row "${label}" expanded`, async () => {
        if ((await row.getAttribute('aria-expanded', { timeout: 2000 })) === 'true') return true;
        await row.click();
        return poll(`tree row "${label}" to say it is expanded`, async () => (await row.getAttribute('aria-expanded', { timeout: 2000 })) === 'true', 10_000)
          .then(() => true, () => false);
      });
    },
    /** "<label> <description>" of a tree row, as shown. */
    async treeRowText(label) {
      const row = wb.treeRow(label);
      const name = await row.locator('.label-name').innerText({ timeout: 2000 });
      const description = await row.locator('.label-description').innerText({ timeout: 500 }).catch(() => '');
      return `${name} ${description}`.replace(/\s+/g, ' ').trim();
    },
    async waitTreeRowText(label, re) {
      return poll(`tree row "${label}" to match ${re}`, async () => {
        const t = await wb.treeRowText(label);
        return re.test(t) ? t : undefined;
      });
    },
    /** Right-clicks `target` and runs the context menu entry `label` (retries while the menu lacks it). */
    async contextMenu(target, label, { whenOpen } = {}) {
      await poll(`context menu entry "${label}"`, async () => {
        await target.click({ button: 'right' });
        const item = page.getByRole('menuitem', { name: label, exact: false }).filter({ hasText: label }).first();
        try {
          await item.waitFor({ state: 'visible', timeout: 1500 });
        } catch {
          await page.keyboard.press('Escape');
          return false;
        }
        if (whenOpen) {
          await item.hover();
          await whenOpen();
        }
        // The menu ignores a click that comes too soon after it opened: click until it closes.
        await poll(`the context menu to run "${label}"`, async () => {
          if (!(await item.isVisible())) return true;
          await item.click({ timeout: 1000 }).catch(() => {});
          return !(await item.isVisible());
        }, 5000, 300);
        return true;
      });
    },
    /** Text of visible notification toasts. */
    async notifications() {
      return page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
    },
    /** A notification toast matching `re`; toasts already hidden are looked up in the notification center. */
    async waitNotification(re) {
      // A toast may hide into the notification center before it is seen (a loaded machine): after
      // 2 s, and every 5 s after that, show the center (a command that shows, never toggles).
      let nextShow = Date.now() + 2000;
      return poll(`a notification matching ${re}`, async () => {
        const hit = (await page.locator('.notification-list-item-message').allInnerTexts()).find((t) => re.test(t));
        if (hit) return hit;
        if (Date.now() > nextShow) {
          nextShow = Date.now() + 5000;
          await wb.runCommand('Notifications: Show Notifications').catch(() => {});
        }
        return undefined;
      });
    },
    /** Clears every notification (toasts and the center) before a screenshot. */
    async clearNotifications() {
      await wb.runCommand('Notifications: Clear All Notifications');
      await poll('the notifications to go', async () =>
        (await page.locator('.notification-toast, .notifications-center.visible .notification-list-item').count()) === 0 && !(await quickInput.isVisible()));
    },
    /** Makes the side bar `width` pixels wide by dragging its sash (room for the tree's descriptions). */
    async sideBarWidth(width) {
      const box = await page.locator('.part.sidebar').boundingBox();
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width + 2, y);
      await page.mouse.down();
      await page.mouse.move(box.x + width, y, { steps: 5 });
      await page.mouse.up();
    },
    /** The content frame of the active webview panel, once it shows `text`. */
    async webviewWith(text) {
      return poll(`a webview showing "${text}"`, async () => {
        for (const f of page.frames()) {
          if (f.name() === 'active-frame' || f.url().includes('fake.html')) {
            const body = await f.locator('body').innerText({ timeout: 1000 }).catch(() => '');
            if (body.includes(text)) return f;
          }
        }
        return undefined;
      });
    },
  };
  return wb;
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
