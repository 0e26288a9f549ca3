// The Data Requests commands, loaded on first use (dist/requests.js; esbuild.mjs): the request
// workflow (resolution, actions, evidence) stays out of the main bundle; the view reads the model only.
export { newDataRequest } from '../commands/dataRequests/newDataRequest';
export { runDataRequest } from '../commands/dataRequests/runDataRequest';
export { closeDataRequest, openEvidence, recordExportLink, verifyDataRequest, withdrawDataRequest } from '../commands/dataRequests/requestSteps';
export { exportOperatorPublicKey } from '../commands/dataRequests/operatorKeys';
export { shredDataRequest } from '../commands/dataRequests/shredDataRequest';
