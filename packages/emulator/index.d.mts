// The ES module entry's types: the same API as index.d.ts (dist/index.mjs).
export * from './index.js';
