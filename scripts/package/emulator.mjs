#!/usr/bin/env node
// npm run package:emulator: the platform-emulator npm package (packages/emulator: bin, the
// programmatic API in ES module and CommonJS form with its .d.ts, the seed schema), production
// bundles, packed and checked; then its container image (packages/emulator/examples/Dockerfile)
// when docker or podman is on the PATH, else says it was not built.
// Usage: node scripts/package/emulator.mjs [--out DIR]   (default: the repository root); prints the .tgz path.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { common, emulatorApiBuilds } from '../../esbuild.mjs';
import { REPO_ROOT } from '../test-host/paths.mjs';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? REPO_ROOT);
const SRC = join(REPO_ROOT, 'packages', 'emulator');
const EXPECTED = ['README.md', 'dist/emulator.js', 'dist/index.cjs', 'dist/index.mjs', 'index.d.mts', 'index.d.ts', 'package.json', 'seed.schema.json'];
const stage = mkdtempSync(join(tmpdir(), 'platform-emulator-pkg-'));
try {
  const prod = { ...common, minify: true, sourcemap: false };
  await Promise.all([
    esbuild.build({ ...prod, absWorkingDir: REPO_ROOT, entryPoints: { emulator: 'src/emulator/main.ts' }, outdir: join(stage, 'dist'), banner: { js: '#!/usr/bin/env node' } }),
    ...emulatorApiBuilds(prod, join(stage, 'dist')).map((b) => esbuild.build(b)),
  ]);
  chmodSync(join(stage, 'dist', 'emulator.js'), 0o755);
  const pkg = JSON.parse(readFileSync(join(SRC, 'package.json'), 'utf8'));
  pkg.version = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version;
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  for (const f of ['README.md', 'index.d.ts', 'index.d.mts', 'seed.schema.json']) copyFileSync(join(SRC, f), join(stage, f));
  mkdirSync(out, { recursive: true });
  const r = spawnSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: stage, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`package:emulator: npm pack failed (exit ${r.status ?? r.signal}): ${r.stderr}`);
    process.exit(1);
  }
  const [packed] = JSON.parse(r.stdout);
  const names = packed.files.map((f) => f.path).sort();
  if (JSON.stringify(names) !== JSON.stringify(EXPECTED)) {
    console.error(`package:emulator: the package holds ${names.join(', ')}; expected ${EXPECTED.join(', ')}`);
    process.exit(1);
  }
  const tgz = join(out, packed.filename);
  console.log(tgz);
  const runtime = ['docker', 'podman'].find((cmd) => (process.env.PATH ?? '').split(delimiter).some((d) => d && existsSync(join(d, cmd))));
  if (!runtime) {
    console.error('package:emulator: no container runtime (docker, podman) on the PATH: the image was not built.');
  } else if (spawnSync(runtime, ['info'], { stdio: 'ignore', timeout: 30_000 }).status !== 0) {
    console.error(`package:emulator: ${runtime} is on the PATH but its daemon does not answer (${runtime} info failed): the image was not built.`);
  } else {
    const ctx = mkdtempSync(join(tmpdir(), 'platform-emulator-image-'));
    try {
      copyFileSync(tgz, join(ctx, packed.filename));
      copyFileSync(join(SRC, 'examples', 'Dockerfile'), join(ctx, 'Dockerfile'));
      const b = spawnSync(runtime, ['build', '-t', `platform-emulator:${pkg.version}`, '--build-arg', `VERSION=${pkg.version}`, ctx], { stdio: 'inherit' });
      if (b.status !== 0) process.exit(1);
      console.error(`package:emulator: image platform-emulator:${pkg.version} built with ${runtime}.`);
    } finally {
      rmSync(ctx, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}
