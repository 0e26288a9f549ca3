// CLI: node dist/emulator.js [--port N] [--host 127.0.0.1] [--data DIR] [--seed demo|empty]
//      [--deletion-delay MS] [--rate-limit N/SECONDS] [--fixed-keys] [--tls] [--json] [--verbose]
//      (--seed applies only when DIR holds no saved state)
// With --json the first stdout line is exactly {"endpoint":...,"titles":[{"titleId","secretKey"}]}
// (plus "caCertificate": PEM with --tls).

import { startEmulator } from './server';
import type { EmulatorOptions } from './server';
import { parseRateLimit } from './rateLimit';
import { SEED_NAMES } from './seed';
import type { SeedName } from './seed';

const USAGE = 'usage: node dist/emulator.js [--port N] [--host 127.0.0.1|::1|localhost] [--data DIR] [--seed ' + SEED_NAMES.join('|') + '] [--deletion-delay MS] [--rate-limit N/SECONDS] [--fixed-keys] [--tls] [--json] [--verbose]';

interface CliArgs {
  options: EmulatorOptions;
  json: boolean;
}

function parseArgs(argv: readonly string[]): CliArgs {
  const options: EmulatorOptions = { port: 0 };
  let json = false;
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value.\n${USAGE}`);
    return v;
  };
  const integer = (v: string, flag: string, max: number): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n > max) throw new Error(`${flag} must be a whole number from 0 to ${max}, not "${v}".`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '--port': options.port = integer(value(i++, a), a, 65535); break;
      case '--host': options.host = value(i++, a); break;
      case '--data': options.dataDir = value(i++, a); break;
      case '--seed': {
        const s = value(i++, a);
        if (!(SEED_NAMES as readonly string[]).includes(s)) throw new Error(`--seed must be one of ${SEED_NAMES.join(', ')}, not "${s}".`);
        options.seed = s as SeedName;
        break;
      }
      case '--deletion-delay': options.deletionDelayMs = integer(value(i++, a), a, 2 ** 31 - 1); break;
      case '--fixed-keys': options.fixedKeys = true; break;
      case '--rate-limit': options.rateLimit = parseRateLimit(value(i++, a)); break;
      case '--json': json = true; break;
      case '--tls': options.tls = true; break;
      case '--verbose': options.logRequests = true; break;
      case '--help': case '-h': throw new Error(USAGE);
      default: throw new Error(`Unknown argument "${a}".\n${USAGE}`);
    }
  }
  return { options, json };
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const log = (line: string) => process.stderr.write(`[emulator] ${line}\n`);
  const emu = await startEmulator({ ...args.options, log });
  if (args.json) {
    const titles = emu.titles.map((t) => ({ titleId: t.titleId, secretKey: t.secretKey }));
    process.stdout.write(JSON.stringify({ endpoint: emu.endpoint, titles, ...(emu.caCertificate ? { caCertificate: emu.caCertificate } : {}) }) + '\n');
  } else {
    const lines = [
      'Platform emulator running (local only; demo keys of this run, not real secrets).',
      `  Endpoint template: ${emu.endpoint}`,
      ...(emu.caCertificate ? ['  HTTPS with a certificate made at start; trust it with (e.g.) NODE_EXTRA_CA_CERTS:', emu.caCertificate.trim()] : []),
      ...emu.titles.map((t) => `  Title ${t.titleId} "${t.name}"  secret key: ${t.secretKey}`),
      `  Test controls: ${emu.origin}/_emulator/  (reset, seed, outbox, jobs, clock/advance, stats, faults, launcher-token)`,
      `  Example: curl -s -X POST -H 'Content-Type: application/json' -H 'X-SecretKey: ${emu.titles[0]?.secretKey ?? '<key>'}' \\`,
      `    -d '{"StorefrontNames":["racer_ana_0"]}' ${emu.origin}/${emu.titles[0]?.titleId ?? '<titleId>'}/Server/GetPlatformIDsFromStorefrontNames`,
      'Press Ctrl+C to stop.',
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    emu.close().then(
      () => process.exit(0),
      (e: unknown) => { log(`close failed: ${(e as Error).message}`); process.exit(1); },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  process.stderr.write(`The emulator could not start: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
