// The emulator's command line (dist/emulator.js; the platform-emulator package's bin). See USAGE.
// With --json the first stdout line is exactly {"endpoint":...,"titles":[{"titleId","secretKey"}]}
// (plus "caCertificate": PEM with --tls), printed once every title accepts requests.
// Exit codes: 0 stopped by a signal, 1 could not start (a port in use), 2 bad arguments or seed.

import { checkedHosts, CONTROL_TOKEN_ENV, controlTokenProblem } from './access';
import { startEmulator } from './server';
import type { EmulatorOptions } from './server';
import { parseRateLimit } from './rateLimit';
import { SEED_NAMES, seedSource } from './seed';
import { SEED_SCHEMA } from './seedfile/seedSchema';
import { readSnapshotFile, writeSnapshotFile } from './snapshots';
import { VERSION } from '../core/version';

const USAGE = `usage: platform-emulator [options]   (also: node dist/emulator.js [options])
  --seed ${SEED_NAMES.join('|')}|FILE  the titles and players to start with (default demo); FILE is a seed
                         JSON file (its format: --print-seed-schema). Applies when --data holds no state.
  --port N               port on the loopback address (default 0: any free port)
  --host H               127.0.0.1 (default), ::1 or localhost; another address (0.0.0.0 in a container)
                         only with --allowed-host
  --allowed-host NAME    a Host name clients use besides loopback (the compose service name); repeatable
  --control-token T      fix the control token (default: random per run); better: the environment
                         variable ${CONTROL_TOKEN_ENV}, which stays out of the process list
  --fault-seed N         the seed rate faults draw from (default random; in the --json line): replays a run
  --json                 print the first stdout line as JSON:
                         {"endpoint","controlToken","faultSeed","titles":[{"titleId","secretKey"}]}
  --data DIR             keep the state in DIR/state.json (and deletion e-mails in DIR/outbox/)
  --load FILE            start from a snapshot file (written by --snapshot-on-exit)
  --snapshot-on-exit FILE  write the whole state to FILE when stopped by SIGINT or SIGTERM
  --fixed-keys           the demo titles' documented test keys instead of random ones
  --deletion-delay MS    time from DeleteMasterPlayerAccount to its completion (default 5000)
  --rate-limit N/SECONDS throttle each title's operation past N requests per window
  --request-log-size N   entries the request log keeps (default 10000; 0 turns it off)
  --tls                  HTTPS with a certificate made at start (its PEM in the --json line)
  --verbose              one stderr line per request
  --print-seed-schema    print the seed file JSON Schema and exit
  --help                 print this and exit
  --version              print the version and exit
Controls under /_emulator/ need "Authorization: Bearer <control token>", all but ready.
Readiness: GET /_emulator/ready answers 200 once every title accepts requests.
Request log: GET /_emulator/requests?since=N, GET /_emulator/requests/stream (server-sent events).
Snapshots: POST /_emulator/snapshots/NAME, POST /_emulator/snapshots/NAME/restore, GET /_emulator/snapshots.
Data requests: GET /_emulator/players, GET /_emulator/events?type=player_data_exported|title_deleted_master_player.`;

interface CliArgs {
  options: EmulatorOptions;
  json: boolean;
  snapshotOnExit?: string;
  /** Print and exit: --help, --version, --print-seed-schema. */
  print?: string;
}

class UsageError extends Error {}

// eslint-disable-next-line complexity -- one case per flag, in the order of --help
function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): CliArgs {
  const options: EmulatorOptions = { port: 0 };
  const args: CliArgs = { options, json: false };
  let seed: string | undefined;
  let load: string | undefined;
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value.\n${USAGE}`);
    return v;
  };
  const integer = (v: string, flag: string, max: number): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n > max) throw new UsageError(`${flag} must be a whole number from 0 to ${max}, not "${v}".`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '--port': options.port = integer(value(i++, a), a, 65535); break;
      case '--host': options.host = value(i++, a); break;
      case '--allowed-host': (options.allowedHosts ??= []).push(value(i++, a)); break;
      case '--control-token': options.controlToken = value(i++, a); break;
      case '--fault-seed': options.faultSeed = integer(value(i++, a), a, 2 ** 32 - 1); break;
      case '--data': options.dataDir = value(i++, a); break;
      case '--seed': seed = value(i++, a); break;
      case '--load': load = value(i++, a); break;
      case '--snapshot-on-exit': args.snapshotOnExit = value(i++, a); break;
      case '--deletion-delay': options.deletionDelayMs = integer(value(i++, a), a, 2 ** 31 - 1); break;
      case '--request-log-size': options.requestLogSize = integer(value(i++, a), a, 1_000_000); break;
      case '--fixed-keys': options.fixedKeys = true; break;
      case '--rate-limit': options.rateLimit = parseRateLimit(value(i++, a)); break;
      case '--json': args.json = true; break;
      case '--tls': options.tls = true; break;
      case '--verbose': options.logRequests = true; break;
      case '--print-seed-schema': args.print = JSON.stringify(SEED_SCHEMA, null, 2); return args;
      case '--help': case '-h': args.print = USAGE; return args;
      case '--version': args.print = VERSION; return args;
      default: throw new UsageError(`Unknown argument "${a}".\n${USAGE}`);
    }
  }
  if (seed !== undefined) {
    if (!(SEED_NAMES as readonly string[]).includes(seed) && !/[./\\]/.test(seed)) {
      throw new UsageError(`--seed must be one of ${SEED_NAMES.join(', ')} or the path of a seed file (.json), not "${seed}".`);
    }
    options.seed = seedSource(seed);
  }
  if (load !== undefined) options.initialState = readSnapshotFile(load);
  try {
    checkedHosts(options.host ?? '127.0.0.1', options.allowedHosts ?? []);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  options.controlToken ??= env[CONTROL_TOKEN_ENV] || undefined;
  if (options.controlToken !== undefined) {
    const problem = controlTokenProblem(options.controlToken);
    if (problem) throw new UsageError(`--control-token / ${CONTROL_TOKEN_ENV}: ${problem}`);
  }
  return args;
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2), process.env);
  } catch (e) {
    // Bad arguments, a bad seed file or snapshot file: the message names what and where.
    process.stderr.write(`${(e as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  if (args.print !== undefined) {
    process.stdout.write(`${args.print}\n`);
    return;
  }
  const log = (line: string) => process.stderr.write(`[emulator] ${line}\n`);
  const emu = await startEmulator({ ...args.options, log });
  if (args.json) {
    const titles = emu.titles.map((t) => ({ titleId: t.titleId, secretKey: t.secretKey }));
    process.stdout.write(JSON.stringify({ endpoint: emu.endpoint, controlToken: emu.controlToken, faultSeed: emu.faultSeed, titles, ...(emu.caCertificate ? { caCertificate: emu.caCertificate } : {}) }) + '\n');
  } else {
    const lines = [
      'Platform emulator running (local only; demo keys of this run, not real secrets).',
      `  Endpoint template: ${emu.endpoint}`,
      ...(emu.caCertificate ? ['  HTTPS with a certificate made at start; trust it with (e.g.) NODE_EXTRA_CA_CERTS:', emu.caCertificate.trim()] : []),
      ...emu.titles.slice(0, 20).map((t) => `  Title ${t.titleId} "${t.name}"  secret key: ${t.secretKey}`),
      ...(emu.titles.length > 20 ? [`  … and ${emu.titles.length - 20} more titles (--json lists every key)`] : []),
      `  Test controls: ${emu.origin}/_emulator/  (ready, requests, snapshots, reset, seed, outbox, jobs, clock/advance, stats, faults, launcher-token)`,
      `  Control token (Authorization: Bearer …, all but ready): ${emu.controlToken}`,
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
    (async () => {
      await emu.close();
      if (args.snapshotOnExit) {
        await writeSnapshotFile(args.snapshotOnExit, emu.snapshot());
        log(`state written to ${args.snapshotOnExit}`);
      }
    })().then(
      () => process.exit(0),
      (e: unknown) => { log(`stopping failed: ${(e as Error).message}`); process.exit(1); },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  process.stderr.write(`The emulator could not start: ${(e as Error).message}\n`);
  process.exitCode = 1;
});
