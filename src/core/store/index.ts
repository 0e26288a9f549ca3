// The team store: deletion batches (and later data requests) in PostgreSQL, shared by operators on
// several machines; the file journal stays the default store.
export * from './types';
export * from './schema';
export * from './connection';
export * from './postgres';
export * from './admin';
export * from './rows';
export * from './transfer';
export * from './requests';
