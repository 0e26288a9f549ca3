// `npm run test:mutation -- --config scripts/mutation/tools.config.mjs --mutate 'src/core/tools/**/*.ts'`:
// the agent tools (src/core/tools) against the in-process suites that reach them only, so the dry
// run takes seconds, not the whole unit suite. A narrowed list never raises a score: a mutant the
// full list would kill may survive here (see stryker.config.mjs).
import base from '../../stryker.config.mjs';

export default {
  ...base,
  mochaOptions: {
    ...base.mochaOptions,
    spec: [
      'out/test/unit/core/toolRun.test.js',
      'out/test/unit/core/toolChannel.test.js',
      ...['channel', 'tools', 'toolsInProcess'].map((f) => `out/test/unit/mcp/${f}.test.js`),
    ],
  },
  incrementalFile: 'reports/mutation/tools-incremental.json',
  jsonReporter: { fileName: 'reports/mutation/tools.json' },
  htmlReporter: { fileName: 'reports/mutation/tools.html' },
};
