// The lookups, loaded on first use (dist/lookups.js; esbuild.mjs): Show Played Titles, the
// PlatformId lookups, Look Up Account Info, Find PlatformIds and Export Deletion Jobs.
export { exportDeletionJobs } from '../commands/exportDeletionJobs';
export { findPlatformIds } from '../commands/findPlatformIds';
export { lookUpAccountInfo } from '../commands/lookUpAccountInfo';
export { lookUpConsoleLiveIds } from '../commands/lookUpConsoleLiveIds';
export { lookUpStorefrontNames } from '../commands/lookUpStorefrontNames';
export { showPlayedTitles } from '../commands/showPlayedTitles';
// The command declarations of this bundle (registered from ../commands/all.ts, generated).
export { showPlayedTitlesCommand } from '../commands/showPlayedTitles';
export { lookUpAccountInfoCommand } from '../commands/lookUpAccountInfo';
export { lookUpConsoleLiveIdsCommand } from '../commands/lookUpConsoleLiveIds';
export { lookUpStorefrontNamesCommand } from '../commands/lookUpStorefrontNames';
export { findPlatformIdsCommand } from '../commands/findPlatformIds';
export { exportDeletionJobsCommand } from '../commands/exportDeletionJobs';
