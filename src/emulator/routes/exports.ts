// The export routes: GET /_emulator/exports lists the export jobs (never their documents or
// download tokens: a listing holds no bearer link), and the download link itself, a bearer link
// of its own (sent to the title's notification address), answered without the control token.

import { DOWNLOAD_PATH } from '../exports';
import { openRoute, route, type Route } from './route';

const DOWNLOAD = DOWNLOAD_PATH.slice('/_emulator/'.length);

export const EXPORT_ROUTES: readonly Route[] = [
  route('GET', 'exports', ({ service }) => ({ exports: (service.data.exports ?? []).map(({ document: _d, token: _t, ...j }) => j) })),
  openRoute(route('GET', `${DOWNLOAD}(.*)`, ({ service }, m) => service.exports.download(m[1]), `${DOWNLOAD}x`)),
];
