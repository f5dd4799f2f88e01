#!/usr/bin/env node
// Builds the fake gNMI target (main.go beside this file, over github.com/openconfig/gnmi v0.14.1's
// testing/fake/gnmi) once into the user's cache, keyed by the sources' hash, and prints the binary's
// path. `npm test` runs it before the tests; the gNMI tests run it too and fail, naming Go, without it.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const hash = createHash('sha256');
for (const file of ['main.go', 'go.mod', 'go.sum']) hash.update(readFileSync(join(here, file)));
const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
const dir = join(cache, 'fabscope', `fake-gnmi-target-${hash.digest('hex').slice(0, 16)}`);
const binary = join(dir, 'fake-gnmi-target');

if (!existsSync(binary)) {
  // openconfig/gnmi v0.14.1 asks for Go 1.22; Debian bookworm's golang-go is 1.19 (backports has newer).
  const version = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  const [major = 0, minor = 0] = (/^go(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
  if (major < 1 || (major === 1 && minor < 22)) {
    console.error(
      `the gNMI tests need Go >= 1.22 (found "${version || 'none'}"; Debian: golang-1.22 or later from ` +
        'bookworm-backports, or go.dev/dl) to build the fake gNMI target of github.com/openconfig/gnmi',
    );
    process.exit(1);
  }
  mkdirSync(dir, { recursive: true });
  // Built beside its final name and renamed: concurrent builds each publish a whole binary.
  const partial = `${binary}.${process.pid}`;
  console.error(`building the fake gNMI target into ${dir} (first run: a few minutes)`);
  execFileSync('go', ['build', '-trimpath', '-o', partial, '.'], {
    cwd: here,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, GOFLAGS: '-mod=readonly', CGO_ENABLED: '0' },
  });
  renameSync(partial, binary);
}
console.log(binary);
