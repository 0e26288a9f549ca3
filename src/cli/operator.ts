// `platform-explorer operator ...`: the operator key that names this user in a request's evidence
// and signs it (core/operator.ts), kept in $XDG_CONFIG_HOME/platform-explorer (made on first use).
import { cliKeyStore, loadOperator, type Operator } from '../core/operator';
import { escapeUnsafe } from '../core/serviceText';
import { UsageError } from './args';

export const OPERATOR_USAGE = `the operator (who runs data requests; signs their evidence):
  platform-explorer operator show [--public-key] [--json]
  platform-explorer operator init [--name NAME]

The operator key (Ed25519) is made on first use in $XDG_CONFIG_HOME/platform-explorer/
(default ~/.config/platform-explorer/, a folder and file only you can read); its display name is
your user name unless init --name sets one. show prints the name, the fingerprint and the public
key; --public-key prints the public key alone (PEM): give that file to auditors, who check a pack
with platform-explorer request verify-evidence --evidence evidence.json --signer FILE.`;

/** Our own text for the terminal: control and bidi characters made visible, line breaks kept, nothing masked. */
export const ownText = (s: string): string => s.split('\n').map(escapeUnsafe).join('\n');

/** This user's operator (made on first use). */
export function cliOperator(o: { rename?: string } = {}): Promise<Operator> {
  return loadOperator(cliKeyStore(), o);
}

export async function runOperatorCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'show' && sub !== 'init') throw new UsageError(`Unknown operator command "${sub ?? ''}": use show or init (see --help).`);
  const allowed = sub === 'show' ? ['--public-key', '--json'] : ['--name', '--json'];
  let name: string | undefined;
  const flags = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!allowed.includes(a)) throw new UsageError(`Unknown option "${a}" for operator ${sub} (see --help).`);
    if (a === '--name') {
      name = rest[++i];
      if (name === undefined || name.startsWith('--')) throw new UsageError('--name needs a value: the display name the evidence gives you (e.g. "Ana K, privacy team").');
    } else flags.add(a);
  }
  const keys = cliKeyStore();
  const op = await loadOperator(keys, name !== undefined ? { rename: name } : {});
  if (flags.has('--public-key')) {
    process.stdout.write(op.publicKeyPem);
    return 0;
  }
  if (flags.has('--json')) process.stdout.write(`${JSON.stringify({ name: op.name, fingerprint: op.fingerprint, publicKey: op.publicKeyPem, keyFolder: keys.where })}\n`);
  else process.stdout.write(ownText(`operator ${op.name}\nfingerprint ${op.fingerprint}\nkey folder ${keys.where}\n`) + op.publicKeyPem);
  return 0;
}
