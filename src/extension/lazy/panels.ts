// The webview panels and the commands that open them, loaded on first use (dist/panels.js; esbuild.mjs).
export { showHandheldStore } from '../commands/showHandheldStore';
export { testLauncherLogin } from '../commands/testLauncherLogin';
// The command declarations of this bundle (registered from ../commands/all.ts, generated).
export { testLauncherLoginCommand } from '../commands/testLauncherLogin';
export { showHandheldStoreCommand } from '../commands/showHandheldStore';
