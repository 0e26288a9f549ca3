// The public surface of src/core.
export * from './api/types';
export * from './api/errors';
export {
  PlatformClient, BULK_CONCURRENCY, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, MAX_RETRY_AFTER_SECONDS,
  type BulkOptions, type CallOptions, type PlatformClientOptions, type RequestLogEntry,
} from './api/client';
export { TOKEN_REFRESH_MARGIN_MS } from './api/tokenCache';
export * from './api/endpoint';
export * from './ids';
export * from './redact';
