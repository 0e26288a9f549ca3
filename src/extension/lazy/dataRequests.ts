// The Data Requests commands, loaded on first use (dist/requests.js; esbuild.mjs): the request
// workflow (resolution, actions, evidence) stays out of the main bundle; the view reads the model only.
export { newDataRequest } from '../commands/dataRequests/newDataRequest';
export { runDataRequest } from '../commands/dataRequests/runDataRequest';
export { closeDataRequest, openEvidence, recordExportLink, verifyDataRequest, withdrawDataRequest } from '../commands/dataRequests/requestSteps';
export { exportOperatorPublicKey } from '../commands/dataRequests/operatorKeys';
export { shredDataRequest } from '../commands/dataRequests/shredDataRequest';
// The command declarations of this bundle (registered from ../commands/all.ts, generated).
export { newDataRequestCommand } from '../commands/dataRequests/newDataRequest';
export { runDataRequestCommand } from '../commands/dataRequests/runDataRequest';
export { verifyDataRequestCommand, recordExportLinkCommand, closeDataRequestCommand, withdrawDataRequestCommand, openDataRequestEvidenceCommand } from '../commands/dataRequests/requestSteps';
export { exportOperatorPublicKeyCommand } from '../commands/dataRequests/operatorKeys';
export { shredDataRequestKeyCommand } from '../commands/dataRequests/shredDataRequest';
