// Compliance deletion from a list of identifiers to verified receipts (shared by the editor and the CLI).
export * from './types';
export * from './input';
export * from './plan';
export * from './journal';
export * from './run';
export * from './ledger';
