// The test host's installer never runs sudo on its own: as a user other than root, with Debian
// packages missing, it prints the apt-get command to run and stops. Runs the real script as
// `nobody` (needs root to switch user) with a dpkg-query that reports every package missing and a
// sudo that records being called.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const INSTALL = resolve('scripts/test-host/install.mjs');

describe('security: the test host installer and sudo', () => {
  let dir: string;
  before(function () {
    if (process.getuid?.() !== 0 || spawnSync('runuser', ['--version']).status !== 0) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'no-sudo-'));
    chmodSync(dir, 0o777);
    const tool = (name: string, body: string) => {
      writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(dir, name), 0o755);
    };
    tool('dpkg-query', 'exit 1');
    tool('sudo', `echo "$@" >> ${dir}/sudo-called; exit 0`);
    tool('apt-get', `echo "$@" >> ${dir}/apt-called; exit 0`);
  });
  after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('as another user it calls neither sudo nor apt-get, prints the command and exits 1', () => {
    const r = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, INSTALL], {
      encoding: 'utf8', timeout: 60_000, env: { PATH: `${dir}:/usr/sbin:/usr/bin:/sbin:/bin`, HOME: dir, CHROMIUM_PATH: join(dir, 'no-chromium') },
    });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.ok(!existsSync(join(dir, 'sudo-called')), 'the installer ran sudo');
    assert.ok(!existsSync(join(dir, 'apt-called')), 'the installer ran apt-get as a non-root user');
    assert.match(r.stderr, /apt-get update && apt-get install -y --no-install-recommends .*chromium/);
    assert.match(r.stderr, /as root/);
  });
});
