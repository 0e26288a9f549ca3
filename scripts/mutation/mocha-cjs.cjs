// Loaded with --require into Stryker's processes. @stryker-mutator/mocha-runner 10.0.0 requires
// mocha's `lib/cli/run-helpers` and `lib/cli/options` without an extension, and mocha 12 ships
// them as .cjs, which require() does not try: registering the extension (loaded like .js, which
// compiles a .cjs file as CommonJS) lets it find them. Remove once the runner names the files.
const Module = require('node:module');
Module._extensions['.cjs'] ??= Module._extensions['.js'];
