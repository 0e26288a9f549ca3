// Page of the Login Result panel (built to dist/webview/loginResult.js).
import { startPage } from '../page';

startPage({ retry: false });
