// Mutation testing (npm run test:mutation): StrykerJS changes the code under test one small
// way at a time (a mutant) and runs the unit tests that reach it; a mutant no test notices is a
// test still to write. The tests are TypeScript bundled by esbuild, so Stryker instruments the
// sources in its sandbox (every mutant in one build, switched on at run time), then runs
// `node esbuild.mjs` there once and the bundled tests of out/ with its mocha runner.
import { fileURLToPath } from 'node:url';

const CJS_SHIM = fileURLToPath(new URL('scripts/mutation/mocha-cjs.cjs', import.meta.url));

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'src/core/**/*.ts',
    // Types and re-exports only: nothing to mutate.
    '!src/core/**/index.ts',
    '!src/core/**/types.ts',
    'src/emulator/rateLimit.ts',
    'src/emulator/jobs.ts',
  ],
  buildCommand: 'node esbuild.mjs',
  testRunner: 'mocha',
  mochaOptions: {
    // Not .mocharc.json: its spec (every unit test) would be added to this one.
    'no-config': true,
    // The unit tests that run the code in this process. Left out: those that spend their time in
    // child processes (the CLI suites, kill/resume, races, packaging), the browser and fuzz suites.
    spec: [
      'out/test/unit/core/*.test.js',
      'out/test/unit/contract/*.test.js',
      // Named one by one: the runner's glob takes no {a,b}.
      ...['channel', 'mcp', 'tools', 'toolsInProcess'].map((f) => `out/test/unit/mcp/${f}.test.js`),
      ...['anchor', 'input', 'journal', 'journalOpen', 'ledger', 'lock', 'lockRaces', 'outcomes', 'ownFile', 'pacer', 'plan', 'planText', 'records', 'run'].map((f) => `out/test/unit/deletion/${f}.test.js`),
      ...['actions', 'events', 'evidence', 'evidenceAttack', 'evidenceBodies', 'evidenceCanonical', 'evidenceDoc', 'evidenceSignature', 'evidenceV2Pack', 'identifiers', 'model', 'resolve', 'seal', 'sealChecks', 'store', 'ticketContext', 'ticketText', 'words', 'workflow'].map((f) => `out/test/unit/requests/${f}.test.js`),
      ...['dataFolder', 'deletion', 'faults', 'login', 'operations', 'persistence', 'publishers', 'rateLimit', 'requestLog', 'seedFile']
        .map((f) => `out/test/unit/emulator/${f}.test.js`),
    ],
    require: ['out/test/unit/helpers/contract.js'],
  },
  testRunnerNodeArgs: ['--require', CJS_SHIM],
  checkerNodeArgs: ['--require', CJS_SHIM],
  coverageAnalysis: 'perTest',
  // A mutant run only while files load (a module-level constant) needs every test run again in
  // a fresh process: minutes each on this machine, so those are left out and counted apart.
  ignoreStatic: true,
  checkers: ['typescript'],
  // Only src/core and the unit tests above: each mutant's check costs what that program holds.
  tsconfigFile: 'tsconfig.mutation.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // Two cores shared with others: one test runner, and the script runs under `nice -n 10`.
  concurrency: 1,
  timeoutMS: 10000,
  dryRunTimeoutMinutes: 30,
  // Only what changed since the last run is tested again; the results are kept (ignored by git)
  // beside the reports, and an interrupted run (Ctrl+C) keeps what it had tested.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['out', 'dist', '.vscode-test', 'bench-results', 'test-results', 'reports', '*.vsix', '*.tgz', 'packages/*/dist', 'test/ui', 'test/integration'],
  tempDirName: '.stryker-tmp',
  thresholds: { high: 85, low: 75, break: null },
};
