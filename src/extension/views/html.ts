// The HTML shell of every panel. No `vscode` import so a browser test can serve the very
// same page. Nothing from the service goes in here: content arrives by postMessage and
// is drawn with textContent.
import { randomBytes } from 'node:crypto';

export interface PanelHtmlArgs {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function panelHtml(a: PanelHtmlArgs): string {
  const e = escapeHtml;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(contentSecurityPolicy(a.cspSource, a.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${e(a.styleUri)}">
<title>${e(a.title)}</title>
</head>
<body>
<main>
<div id="app"></div>
<p id="status" class="status" role="status"></p>
</main>
<script nonce="${e(a.nonce)}" src="${e(a.scriptUri)}"></script>
</body>
</html>
`;
}
