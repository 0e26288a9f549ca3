// `npm run test:mutation -- --config scripts/mutation/requests.config.mjs --mutate FILE`: the data
// requests (src/core/requests) against the in-process unit suites of test/unit/requests only (the
// CLI's suites run the code in child processes, which Stryker does not see). A narrowed list never
// raises a score: a mutant the full list would kill may survive here (see stryker.config.mjs).
import base from '../../stryker.config.mjs';

export const REQUEST_SUITES = [
  'actions', 'actionsRun', 'events', 'evidence', 'evidenceAttack', 'evidenceBodies', 'evidenceCanonical', 'evidenceDoc', 'evidenceSignature', 'evidenceV2Pack', 'identifiers', 'model',
  'resolve', 'seal', 'sealChecks', 'store', 'ticketContext', 'ticketText', 'words', 'workflow', 'verifyEdges', 'workflowDescribe', 'workflowRefusals',
];

export default {
  ...base,
  mochaOptions: {
    ...base.mochaOptions,
    spec: REQUEST_SUITES.map((f) => `out/test/unit/requests/${f}.test.js`),
  },
  incrementalFile: 'reports/mutation/requests-incremental.json',
  jsonReporter: { fileName: 'reports/mutation/requests.json' },
  htmlReporter: { fileName: 'reports/mutation/requests.html' },
};
