// Agent tools, defined once (src/core/tools): the MCP server serves them.
export * from './types';
export * from './data';
export * from './definitions';
export * from './run';
