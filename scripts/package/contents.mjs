// What no package of a release may hold, whatever its own list allows: test or source files,
// source maps (or a bundle pointing at one), .env or .npmrc files, private keys, registry tokens,
// this machine's paths, or the value of a secret-looking variable of the environment it was built
// in. Returns a list of problems (empty = fine), each naming the package and the file.
import { homedir } from 'node:os';

const FORBIDDEN_NAMES = [
  [/(^|\/)\.env(\.[\w-]+)?$/, 'an environment file'],
  [/(^|\/)\.npmrc$/, 'an npm configuration (it can hold a registry token)'],
  [/\.map$/, 'a source map'],
  [/(^|\/)(src|test|tests|out|\.vscode-test|node_modules)\//, 'a source, test or build folder'],
  [/\.(test|spec)\.[cm]?[jt]sx?$/, 'a test file'],
  [/(?<!\.d)\.tsx?$/, 'a TypeScript source'],
];

const FORBIDDEN_TEXT = [
  // A key's header followed by its base64 body (a real line break or a `\n` escape in a string);
  // the header alone is code that parses PEM (the TLS certificate of the emulator).
  [/-----BEGIN (?:RSA |EC |OPENSSH |ENCRYPTED )?PRIVATE KEY-----(?:\s|\\[rn])+[A-Za-z0-9+/]{40}/, 'a private key'],
  [/_authToken\s*=/, 'an npm registry token setting'],
  [/\bnpm_[A-Za-z0-9]{36}\b/, 'an npm access token'],
  [/\bgh[pousr]_[A-Za-z0-9]{36}\b/, 'a GitHub token'],
  [/sourceMappingURL=/, 'a source map reference'],
];

/** Values that must never be in a package: this machine's paths, secret-looking environment values. */
export function buildSecrets(repoRoot, env = process.env) {
  const values = [[repoRoot, 'the repository path of this machine'], [homedir(), 'the home folder of this machine']];
  for (const [name, value] of Object.entries(env)) {
    if (/SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|_KEY$|^KEY|AUTH/i.test(name) && value && value.length >= 8) {
      values.push([value, `the value of $${name}`]);
    }
  }
  return values.filter(([v]) => v.length >= 8 && v !== '/');
}

/**
 * @param {string} pkg the package's name in messages
 * @param {{ name: string, data: Buffer }[]} files its files, named as inside the package
 * @param {[string, string][]} secrets values that must not appear, with what they are
 */
export function checkContents(pkg, files, secrets) {
  const problems = [];
  for (const { name, data } of files) {
    for (const [re, what] of FORBIDDEN_NAMES) if (re.test(name)) problems.push(`${pkg}: ${name} is ${what}`);
    const text = data.toString('latin1');
    for (const [re, what] of FORBIDDEN_TEXT) if (re.test(text)) problems.push(`${pkg}: ${name} holds ${what}`);
    for (const [value, what] of secrets) if (text.includes(value)) problems.push(`${pkg}: ${name} holds ${what}`);
  }
  return problems;
}
