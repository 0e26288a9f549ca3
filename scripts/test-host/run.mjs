#!/usr/bin/env node
// Runs the integration suite (out/test/integration/index.js) inside a real VS Code extension
// host: code-server + headless Chromium. Exits with the suite's code. Build first (node esbuild.mjs).
//
// Usage: node scripts/test-host/run.mjs [--grep PATTERN] [--env KEY=VALUE]... [--folder DIR] [--timeout SECONDS] [--keep]
//   --env / TEST_HOST_ENV='{"K":"V"}'  environment for the extension host (extensionEnvironment)
//   --grep                             only tests whose full title matches (passed as MOCHA_GREP)
//   --keep                             keep the run folder (server log, user data) even when the suite passes
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, REPO_ROOT, startCodeServer } from './server.mjs';

const TESTS_ENTRY = join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');

function usage(msg) {
  console.error(`[test-host] ${msg}`);
  console.error('usage: node scripts/test-host/run.mjs [--grep PATTERN] [--env KEY=VALUE]... [--folder DIR] [--timeout SECONDS] [--keep]');
  process.exit(2);
}

function parseOptions() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        grep: { type: 'string' }, env: { type: 'string', multiple: true }, folder: { type: 'string' },
        timeout: { type: 'string', default: '600' }, keep: { type: 'boolean', default: false },
      },
    }).values;
  } catch (e) {
    usage(e.message);
  }
  // Plain output: mocha's symbols are coloured whenever CI is set, unless NO_COLOR says otherwise.
  const extensionEnvironment = { NO_COLOR: '1' };
  if (process.env.TEST_HOST_ENV) {
    const bad = 'TEST_HOST_ENV must be a JSON object of strings, e.g. {"KEY":"value"}';
    let fromEnv;
    try { fromEnv = JSON.parse(process.env.TEST_HOST_ENV); } catch { usage(bad); }
    if (typeof fromEnv !== 'object' || fromEnv === null || Array.isArray(fromEnv) ||
      !Object.values(fromEnv).every((v) => typeof v === 'string')) usage(bad);
    Object.assign(extensionEnvironment, fromEnv);
  }
  for (const kv of parsed.env ?? []) {
    const i = kv.indexOf('=');
    if (i <= 0) usage(`--env expects KEY=VALUE, got "${kv}"`);
    extensionEnvironment[kv.slice(0, i)] = kv.slice(i + 1);
  }
  if (parsed.grep) extensionEnvironment.MOCHA_GREP = parsed.grep;
  const timeoutSec = Number(parsed.timeout);
  if (!Number.isFinite(timeoutSec) || timeoutSec <= 0) usage(`--timeout expects a positive number of seconds, got "${parsed.timeout}"`);
  return { extensionEnvironment, folder: parsed.folder, timeoutMs: timeoutSec * 1000, keep: parsed.keep };
}

const log = (m) => console.log(`[test-host] ${m}`);

async function main() {
  const opts = parseOptions();
  if (!existsSync(TESTS_ENTRY)) usage(`${TESTS_ENTRY} is missing: build first with \`node esbuild.mjs\``);
  const started = Date.now();

  let server;
  let browser;
  let cleaning;
  const cleanup = (keepRunDir) => {
    cleaning ??= (async () => {
      if (browser) await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
      if (server) await server.stop({ keepRunDir });
    })();
    return cleaning;
  };
  let interruptedCode;
  for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
    process.on(sig, () => {
      if (interruptedCode !== undefined) return;
      interruptedCode = code;
      log(`${sig}: stopping the test host`);
      void cleanup(false).catch((e) => console.error(`[test-host] cleanup: ${e.message}`)).finally(() => process.exit(code));
    });
  }

  let code;
  try {
    server = await startCodeServer({ folder: opts.folder && resolve(opts.folder), log });
    // Debian's chromium; playwright-core never downloads a browser.
    // Signals are ours to handle: cleanup closes the browser and then the server's process group.
    browser = await chromium.launch({
      executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS,
      handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
    });
    const page = await browser.newPage();
    await server.login(page);

    let finish;
    const finished = new Promise((r) => { finish = r; });
    // The workbench's smoke-test driver forwards the extension host's console here.
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      if (type === 'error' || type === 'warn') process.stderr.write(line + '\n');
      else process.stdout.write(line + '\n');
    });
    await page.exposeFunction('codeAutomationExit', (exitCode) => finish({ exitCode }));
    page.on('crash', () => finish({ error: 'the browser page crashed' }));
    void server.exited.then((c) => finish({ error: `code-server exited (code ${c}) before the suite finished` }));

    const url = server.testUrl({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: TESTS_ENTRY,
      extensionEnvironment: opts.extensionEnvironment,
      folder: opts.folder && resolve(opts.folder),
    });
    log('opening the workbench; the suite runs in the extension host');
    // The workbench's own load can be slow on a busy 2-core machine; the suite's deadline starts after it.
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });

    let timer;
    const timedOut = new Promise((r) => { timer = setTimeout(() => r({ error: `time-out: no result after ${opts.timeoutMs / 1000} s` }), opts.timeoutMs); });
    const result = await Promise.race([finished, timedOut]);
    clearTimeout(timer);
    if (result.error) {
      console.error(`[test-host] ${result.error}; server log: ${server.logFile}`);
      code = 1;
    } else {
      code = Number.isInteger(result.exitCode) ? result.exitCode : 1;
    }
  } catch (e) {
    if (interruptedCode === undefined) console.error(`[test-host] ${e instanceof Error ? e.message : String(e)}`);
    code = 1;
  }
  if (interruptedCode !== undefined) {
    await cleanup(false).catch(() => {});
    return interruptedCode;
  }
  const keep = opts.keep || code !== 0;
  await cleanup(keep);
  if (keep && server) log(`run folder kept: ${server.runDir}`);
  log(`suite exited with code ${code} after ${Math.round((Date.now() - started) / 1000)} s`);
  return code;
}

process.exit(await main());
