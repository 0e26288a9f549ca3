// The release's version: package.json's (packages/cli and packages/emulator carry the same), put
// into every bundle by esbuild.mjs (`define`), so the command line, its MCP server and the
// emulator report the version they were built as.
declare const __PLATFORM_EXPLORER_VERSION__: string;

export const VERSION: string = __PLATFORM_EXPLORER_VERSION__;
