// The deletion workflow, loaded on first use (its own bundle, dist/deletion.js; esbuild.mjs):
// Delete Master Player Account(s), Resume, Verify Deletions and the journal, plan and run behind them.
export { deleteFromList } from '../commands/deleteFromList';
export { forgetJournals } from '../commands/journals';
export { deleteMasterPlayerAccount, deleteMasterPlayerAccountInView } from '../commands/deleteMasterPlayerAccount';
export { findInterrupted, resumeBatches } from '../commands/resumeBatches';
export { verifyDeletions, verifyTitle } from '../commands/verifyDeletions';
