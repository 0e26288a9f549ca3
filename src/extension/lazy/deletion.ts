// The deletion workflow, loaded on first use (its own bundle, dist/deletion.js; esbuild.mjs):
// Delete Master Player Account(s), Resume, Verify Deletions and the journal, plan and run behind them.
export { deleteFromList } from '../commands/deleteFromList';
export { forgetJournals } from '../commands/journals';
export { deleteMasterPlayerAccount } from '../commands/deleteMasterPlayerAccount';
export { findInterrupted, resumeBatches } from '../commands/resumeBatches';
export { verifyDeletions, verifyTitle } from '../commands/verifyDeletions';
// The command declarations of this bundle (registered from ../commands/all.ts, generated).
export { deleteMasterPlayerAccountCommand } from '../commands/deleteMasterPlayerAccount';
export { deleteMasterPlayerAccountsFromListCommand } from '../commands/deleteFromList';
export { resumeDeletionBatchesCommand } from '../commands/resumeBatches';
export { verifyDeletionsCommand } from '../commands/verifyDeletions';
