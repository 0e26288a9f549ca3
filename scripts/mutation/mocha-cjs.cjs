// Loaded with --require into Stryker's processes. @stryker-mutator/mocha-runner 10.0.0 requires
// mocha's `lib/cli/run-helpers` and `lib/cli/options` without an extension, and mocha 12 ships
// them as .cjs, which require() does not try: registering the extension (loaded like .js, which
// compiles a .cjs file as CommonJS) lets it find them. Remove once the runner names the files.
const Module = require('node:module');
Module._extensions['.cjs'] ??= Module._extensions['.js'];

// perTest coverage of a suite's `before` hook. Stryker's runner names the running test in a root
// beforeEach, so code a `before` hook runs (an emulator, a client the suite shares) was counted
// for the test that ran before it, in another file (or as static, then ignored): its mutants then
// ran only that unrelated test and "survived". During the dry run (no active mutant), a before-all
// hook's coverage goes to every test of its suite instead. Only the test runner loads mocha.
// The mocha Stryker's runner loads: the mutation tools' own copy, resolved as the runner resolves it
// (they are installed in .vscode-test/mutation: MUTATION_DIR of scripts/test-host/paths.mjs).
const runnerDir = require('node:path').join(__dirname, '..', '..', '.vscode-test', 'mutation', 'node_modules', '@stryker-mutator', 'mocha-runner');
const { Runner } = require(require.resolve('mocha', { paths: [runnerDir] }));
const hook = Runner.prototype.hook;
Runner.prototype.hook = function (name, fn) {
  const ns = globalThis.__stryker__;
  if (name !== 'beforeAll' || ns === undefined || ns.activeMutant !== undefined) return hook.call(this, name, fn);
  const suite = this.suite;
  const id = `${suite.fullTitle()} [before all hooks]`;
  const before = ns.currentTestId;
  ns.currentTestId = id;
  return hook.call(this, name, (...args) => {
    ns.currentTestId = before;
    const cov = ns.mutantCoverage?.perTest ?? {};
    const hit = cov[id];
    delete cov[id];
    if (hit !== undefined) {
      const give = (s) => {
        for (const t of s.tests) {
          if (t.isPending()) continue;
          const c = (cov[t.fullTitle()] ??= {});
          for (const [m, n] of Object.entries(hit)) c[m] = (c[m] ?? 0) + n;
        }
        s.suites.forEach(give);
      };
      give(suite);
    }
    return fn(...args);
  });
};

// Incremental runs: each test is reported in its TypeScript file (test/…/x.test.ts), not in the
// bundle Stryker runs (out/test/…/x.test.js). Stryker reuses a mutant's result while the tests
// that covered or killed it are unchanged, comparing their files with the project's; the bundles
// are built in the sandbox only (out/ is not copied), so they always looked deleted and every
// mutant was tested again.
const { existsSync } = require('node:fs');
const run = Runner.prototype.run;
Runner.prototype.run = function (...args) {
  const toSource = (s) => {
    for (const t of s.tests) {
      const ts = t.file?.replace(/([\\/])out[\\/](test[\\/].*)\.js$/, '$1$2.ts');
      if (ts !== undefined && ts !== t.file && existsSync(ts)) t.file = ts;
    }
    s.suites.forEach(toSource);
  };
  toSource(this.suite);
  return run.apply(this, args);
};
