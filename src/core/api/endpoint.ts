// Building a title's base URL from the service-endpoint template, with host checks.
import { PlatformError } from './errors';
import { validateTitleId } from '../ids';

const PLACEHOLDER = '{titleId}';
// A hex stand-in used to parse a template: any valid title ID gives the same URL structure.
const PROBE_TITLE_ID = 'ABCD';

/** True for the loopback hosts over which plain http is allowed. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === '127.0.0.1' || h === '::1' || h === '[::1]' || h === 'localhost';
}

interface ParsedTemplate {
  hostLabel: boolean; // true: {titleId} is the host's first label; false: a path segment
  probe: URL;
}

// eslint-disable-next-line complexity -- one rule per line, each with the message that names its fix; the order is the order a user reads them
function parseTemplate(t: string): ParsedTemplate | string {
  if (typeof t !== 'string' || t.trim().length === 0) {
    return 'The service endpoint is empty. Set it to a URL containing {titleId}, e.g. https://{titleId}.example.net.';
  }
  if (/\s/.test(t)) {
    return 'The service endpoint contains spaces or line breaks. Remove them.';
  }
  if (t.length > 2048) {
    return 'The service endpoint is longer than 2048 characters. Use the plain service URL with {titleId}.';
  }
  if (/[^\x21-\x7e]/.test(t)) {
    return 'The service endpoint contains non-ASCII characters. Write an international domain in its punycode (xn--) form.';
  }
  if (/[\\%]/.test(t)) {
    return 'The service endpoint must not contain "\\" or %-encoded characters. Write the URL plainly.';
  }
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(.*)$/.exec(t);
  if (!m) {
    return 'The service endpoint is not an absolute URL. Use the form https://{titleId}.example.net.';
  }
  const [, scheme, authority, path, rest] = m;
  if (rest.length > 0) {
    return 'The service endpoint must not contain a query (?) or fragment (#). Remove everything from the "?" or "#".';
  }
  if (authority.includes('@')) {
    return 'The service endpoint must not contain a user name or password (user@host). Remove the part before "@".';
  }
  const count = t.split(PLACEHOLDER).length - 1;
  if (count !== 1) {
    return count === 0
      ? 'The service endpoint has no {titleId} placeholder. Put {titleId} where the title ID goes, e.g. https://{titleId}.example.net.'
      : 'The service endpoint contains {titleId} more than once. Keep exactly one.';
  }
  const withoutPlaceholder = t.replace(PLACEHOLDER, '');
  if (/[{}]/.test(withoutPlaceholder)) {
    return 'The service endpoint contains braces other than the one {titleId} placeholder. Remove them.';
  }
  let hostLabel: boolean;
  if (authority.includes(PLACEHOLDER)) {
    if (!authority.startsWith(`${PLACEHOLDER}.`) || authority.startsWith(`${PLACEHOLDER}.[`)) {
      return 'In the service endpoint\'s host, {titleId} must be the whole first label, e.g. https://{titleId}.example.net.';
    }
    hostLabel = true;
  } else {
    if (!path.split('/').includes(PLACEHOLDER)) {
      return 'In the service endpoint\'s path, {titleId} must be a whole path segment, e.g. http://127.0.0.1:8080/{titleId}.';
    }
    hostLabel = false;
  }
  let probe: URL;
  try {
    probe = new URL(t.replace(PLACEHOLDER, PROBE_TITLE_ID));
  } catch {
    return 'The service endpoint is not a valid URL. Check the host name and port.';
  }
  const protocol = scheme.toLowerCase();
  if (protocol !== 'https' && protocol !== 'http') {
    return `The service endpoint uses "${scheme}:". Use https (http is allowed only for 127.0.0.1, ::1 or localhost).`;
  }
  if (protocol === 'http' && !isLoopbackHost(probe.hostname)) {
    return 'The service endpoint uses http for a remote host. Use https; plain http is allowed only for 127.0.0.1, ::1 or localhost.';
  }
  if (hostLabel) {
    // An all-digit title ID must not turn the host into an IP address (e.g. "https://{titleId}." with 0000).
    const rest = probe.host.slice(PROBE_TITLE_ID.length + 1);
    let numeric: URL | undefined;
    try {
      numeric = new URL(t.replace(PLACEHOLDER, '0000'));
    } catch {
      numeric = undefined;
    }
    if (rest.length === 0 || rest.startsWith('.') || numeric?.host !== `0000.${rest}`) {
      return 'In the service endpoint, after {titleId}. the host needs the service\'s domain name, e.g. https://{titleId}.example.net.';
    }
  }
  return { hostLabel, probe };
}

/** Error text for a bad endpoint template, or undefined when it is usable. */
export function validateEndpointTemplate(t: string): string | undefined {
  const parsed = parseTemplate(t);
  return typeof parsed === 'string' ? parsed : undefined;
}

function invalid(message: string, hint: string): PlatformError {
  return new PlatformError({ kind: 'validation', message, hint });
}

/**
 * The base URL of one title (always ending in '/', so operation paths resolve under it).
 * Throws PlatformError kind 'validation' for a bad title ID or template, or when the built URL's
 * host is not the one the template names.
 */
export function buildBaseUrl(template: string, titleId: string): URL {
  const idError = validateTitleId(titleId);
  if (idError !== undefined) {
    throw invalid(idError, 'Correct the title ID; it is a short hex string such as F71AC.');
  }
  const parsed = parseTemplate(template);
  if (typeof parsed === 'string') {
    throw invalid(parsed, 'Correct the service endpoint setting.');
  }
  const url = new URL(template.replace(PLACEHOLDER, titleId));
  // The template's host, with the title ID as first label when it goes there.
  const expectedHost = parsed.hostLabel
    ? `${titleId.toLowerCase()}.${parsed.probe.host.slice(PROBE_TITLE_ID.length + 1)}`
    : parsed.probe.host;
  if (url.host !== expectedHost || url.protocol !== parsed.probe.protocol) {
    throw invalid(
      `The URL built for title ${titleId} points to "${url.host}" instead of "${expectedHost}".`,
      'Correct the service endpoint setting so the host stays fixed.',
    );
  }
  if (!url.pathname.endsWith('/')) {
    url.pathname += '/';
  }
  return url;
}
