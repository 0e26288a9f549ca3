// Page of the HandheldStore panel (built to dist/webview/handheldStore.js).
import { startPage } from '../page';

startPage({ retry: true });
