// Start / Stop Local Emulator and the demo's hand-over, loaded on first use (dist/emulator-commands.js;
// esbuild.mjs). The emulator itself is a bundle of its own again (dist/emulator-lib.js).
export { seedDemoTitles } from '../demo';
export { startEmulator, stopEmulator } from '../commands/startEmulator';
// The command declarations of this bundle (registered from ../commands/all.ts, generated).
export { startEmulatorCommand, stopEmulatorCommand } from '../commands/startEmulator';
