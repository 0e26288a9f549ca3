// Hostile title IDs and service-endpoint templates. Where a value could steer a request somewhere,
// it steers it at TRAP (a loopback listener that records every request), so a value that slipped
// through would show up there; EMU is the configured emulator.

export interface Hostile {
  why: string;
  value: string;
}

/** Title IDs that must be refused before any URL is built. */
export function hostileTitleIds(trap: string): Hostile[] {
  return [
    { why: 'dot and host', value: `F71AC.${trap}` },
    { why: 'userinfo @', value: `F71AC@${trap}` },
    { why: 'leading @', value: `@${trap}` },
    { why: 'fragment #', value: 'F71AC#' },
    { why: 'query ?', value: 'F71AC?x=1' },
    { why: 'slash', value: `F71AC/${trap}` },
    { why: 'dot-dot path', value: `../../${trap}` },
    { why: 'single dot-dot', value: '..' },
    { why: 'backslash', value: `F71AC\\${trap}` },
    { why: 'port', value: 'F71AC:80' },
    { why: 'IPv6 literal', value: '[::1]' },
    { why: 'IPv4 literal', value: '127.0.0.1' },
    { why: 'localhost', value: 'localhost' },
    { why: 'punycode label', value: 'xn--f71ac-abc' },
    { why: 'percent-encoded slash', value: 'F71AC%2F..%2F' },
    { why: 'percent-encoded dot', value: 'F71AC%2e' },
    { why: 'userinfo with password', value: `u:p@${trap}` },
    { why: 'leading space', value: ' F71AC' },
    { why: 'trailing space', value: 'F71AC ' },
    { why: 'inner space', value: 'F7 1AC' },
    { why: 'tab', value: 'F71AC\t' },
    { why: 'CR/LF header injection', value: `F71AC\r\nHost: ${trap}` },
    { why: 'LF', value: 'F71AC\n' },
    { why: 'NUL byte', value: 'F71AC\u0000' },
    { why: 'very long', value: 'F'.repeat(5000) },
    { why: 'Cyrillic confusables (А, С)', value: 'F71\u0410\u0421' },
    { why: 'full-width digits', value: '\uFF26\uFF17\uFF11' },
    { why: 'zero-width space', value: 'F71\u200BAC' },
    { why: 'right-to-left override', value: 'F71\u202EAC' },
    { why: 'hex prefix', value: '0xF71AC' },
    { why: 'placeholder', value: '{titleId}' },
    { why: 'semicolon', value: 'F71AC;x' },
    { why: 'empty', value: '' },
    { why: 'too short', value: 'F7' },
    { why: 'host and path in host-label form', value: `${trap}/x` },
    { why: 'host and fragment in host-label form', value: `${trap}#` },
  ];
}

/** Endpoint templates that must be refused. */
export function hostileTemplates(trap: string, emu: string): Hostile[] {
  return [
    { why: 'userinfo before the real host', value: `http://${emu}@${trap}/{titleId}` },
    { why: 'userinfo in host-label form', value: 'https://{titleId}.example.net@evil.example' },
    { why: 'user and password', value: `http://user:pw@${emu}/{titleId}` },
    { why: 'backslash before @', value: `http://${trap}\\@${emu}/{titleId}` },
    { why: 'backslash as path separator', value: `http://${emu}\\{titleId}` },
    { why: 'fragment hides the real host', value: `http://${trap}/#{titleId}` },
    { why: 'fragment after host label', value: 'https://{titleId}.example.net#@evil.example' },
    { why: 'query hides the real host', value: `http://${trap}/?{titleId}` },
    { why: 'query in host-label form', value: 'https://{titleId}.example.net?x=evil.example' },
    { why: 'placeholder not a whole label', value: 'https://x{titleId}.example.net' },
    { why: 'placeholder glued to domain', value: 'https://{titleId}evil.example' },
    { why: 'placeholder inside a label', value: 'https://evil.{titleId}.example' },
    { why: 'placeholder as port', value: `http://127.0.0.1:{titleId}/` },
    { why: 'placeholder in a path segment with text', value: `http://${emu}/a{titleId}b` },
    { why: 'two placeholders', value: `http://${emu}/{titleId}/{titleId}` },
    { why: 'no placeholder', value: `http://${trap}/` },
    { why: 'plain http to a remote host', value: 'http://{titleId}.example.net' },
    { why: 'http to a look-alike of loopback', value: 'http://127.0.0.1.evil.example/{titleId}' },
    { why: 'http to localhost subdomain', value: 'http://{titleId}.localhost:8080' },
    { why: 'loopback host label', value: 'http://{titleId}.127.0.0.1' },
    { why: 'IPv6 in host-label form', value: 'https://{titleId}.[::1]' },
    { why: 'invalid port', value: 'https://{titleId}.example.net:99999' },
    { why: 'percent-encoded host', value: 'https://{titleId}.ex%61mple.net' },
    { why: 'percent-encoded placeholder', value: 'https://%7BtitleId%7D.example.net' },
    { why: 'percent-encoded @', value: `http://${emu}%40${trap}/{titleId}` },
    { why: 'Unicode host (IDN not in punycode)', value: 'https://{titleId}.exämple.net' },
    { why: 'Cyrillic confusable in host', value: 'https://{titleId}.ex\u0430mple.net' },
    { why: 'full-width dot', value: 'https://{titleId}\uFF0Eexample.net' },
    { why: 'leading whitespace', value: ' https://{titleId}.example.net' },
    { why: 'trailing tab', value: 'https://{titleId}.example.net\t' },
    { why: 'CR/LF header injection', value: 'https://{titleId}.example.net\r\nHost: evil.example' },
    { why: 'very long', value: `https://{titleId}.${'a'.repeat(3000)}.net` },
    { why: 'javascript scheme', value: 'javascript://{titleId}.example.net' },
    { why: 'file scheme', value: 'file:///{titleId}' },
    { why: 'ftp scheme', value: 'ftp://{titleId}.example.net' },
    { why: 'protocol-relative', value: '//{titleId}.example.net' },
    { why: 'no scheme', value: '{titleId}.example.net' },
    { why: 'single slash after scheme', value: 'https:/{titleId}.example.net' },
    { why: 'extra braces', value: 'https://{titleId}.example.net/{x}' },
    { why: 'empty', value: '' },
  ];
}

/**
 * Templates that look odd but are legitimate spellings of the configured emulator; requests for
 * valid title IDs must reach the emulator and nothing else.
 */
export function confinedTemplates(emuPort: number): Hostile[] {
  return [
    { why: 'plain', value: `http://127.0.0.1:${emuPort}/{titleId}` },
    { why: 'trailing slash', value: `http://127.0.0.1:${emuPort}/{titleId}/` },
    { why: 'upper-case scheme', value: `HTTP://127.0.0.1:${emuPort}/{titleId}` },
    { why: 'dot segments normalised away', value: `http://127.0.0.1:${emuPort}/x/../{titleId}` },
  ];
}
