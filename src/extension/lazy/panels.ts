// The webview panels and the commands that open them, loaded on first use (dist/panels.js; esbuild.mjs).
export { showHandheldStore } from '../commands/showHandheldStore';
export { testLauncherLogin } from '../commands/testLauncherLogin';
