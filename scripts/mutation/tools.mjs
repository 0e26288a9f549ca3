// The mutation tools live outside the project's node_modules (see MUTATION_DIR in
// scripts/test-host/paths.mjs): installed on first use, then resolved from their own folder.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { MUTATION_DIR, REPO_ROOT } from '../test-host/paths.mjs';

/** Installs the mutation tools when missing or when their committed lockfile changed; exits on failure. */
export function ensureMutationTools() {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'test-host', 'install.mjs'), '--mutation'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** The path of a module of the mutation tools (e.g. '@stryker-mutator/instrumenter'). */
export function mutationToolPath(name) {
  return createRequire(join(MUTATION_DIR, 'package.json')).resolve(name);
}
