// `npm run bench -- openapi-conformance`: schemathesis (PyPI) against the OpenAPI document the API
// serves, every check on (`--checks all`: schema-valid requests answered, schema-violating ones
// refused, statuses, content types and bodies as documented, methods, auth), with the departures
// apps/api/schemathesis.toml names and explains. Runs the demo on ar-demo (emulator attached, so
// traffic and faults are exercised for real) on a free loopback port and stops it after.
//
// schemathesis is a Python program: it is installed, pinned, into a virtual environment outside the
// repository (FABSCOPE_SCHEMATHESIS_VENV, default ~/.cache/fabscope/schemathesis-<version>) on first
// use. Without python3 and its venv module the bench says what is missing and fails.
// Prints the operations and cases tested and the failures; exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemo } from '@fabscope/test-support';

const SCHEMATHESIS_VERSION = '4.32.5';
const BIN = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));
const CONFIG = fileURLToPath(new URL('../../api/schemathesis.toml', import.meta.url));
const SEED = process.env.FABSCOPE_SCHEMATHESIS_SEED ?? '1';
const MAX_EXAMPLES = process.env.FABSCOPE_SCHEMATHESIS_EXAMPLES ?? '30';

function schemathesis(): string {
  const venv =
    process.env.FABSCOPE_SCHEMATHESIS_VENV ??
    join(homedir(), '.cache', 'fabscope', `schemathesis-${SCHEMATHESIS_VERSION}`);
  const st = join(venv, 'bin', 'st');
  if (existsSync(st)) return st;
  const made = spawnSync('python3', ['-m', 'venv', venv], { encoding: 'utf8' });
  if (made.status !== 0) {
    console.error(
      `schemathesis needs python3 with its venv module (Debian: apt-get install python3-venv): ${made.stderr || made.error}`,
    );
    process.exit(1);
  }
  const pip = spawnSync(
    join(venv, 'bin', 'pip'),
    ['install', '-q', `schemathesis==${SCHEMATHESIS_VERSION}`],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (pip.status !== 0) {
    console.error(`pip could not install schemathesis ${SCHEMATHESIS_VERSION} into ${venv}`);
    process.exit(1);
  }
  return st;
}

const st = schemathesis();
const demo = await startDemo({ bin: BIN, scenario: 'ar-demo', readyTimeoutMs: 60_000 });
let status = 1;
try {
  const args = [
    '--config-file',
    CONFIG,
    'run',
    `${demo.url}/api/v1/openapi.json`,
    '--checks',
    'all',
    '--max-examples',
    MAX_EXAMPLES,
    '--url',
    demo.url,
    '--seed',
    SEED,
  ];
  console.log(`st ${args.join(' ')}`);
  const started = performance.now();
  // In a temporary directory: schemathesis keeps its own files (.schemathesis/) where it runs.
  const run = spawnSync(st, args, {
    encoding: 'utf8',
    cwd: tmpdir(),
    env: { ...process.env, NO_COLOR: '1' },
  });
  const output = `${run.stdout}${run.stderr}`;
  const seconds = (performance.now() - started) / 1000;
  // schemathesis' own summary lines: operations selected, cases generated, failures found.
  const operations = /Operations:\s+(\d+) selected/.exec(output)?.[1];
  const generated = /(\d+) generated, (\d+) (?:passed|found (\d+) unique failures?)/.exec(output);
  const failures = generated?.[3] ?? (generated ? '0' : undefined);
  if (run.status !== 0) console.log(output.slice(output.indexOf('FAILURES')));
  console.log(`openapi-conformance operations: ${operations ?? '?'}`);
  console.log(`openapi-conformance cases generated: ${generated?.[1] ?? '?'}`);
  console.log(`openapi-conformance failures: ${failures ?? '?'} (limit 0)`);
  console.log(`openapi-conformance run: ${seconds.toFixed(0)} s (seed ${SEED}, ${MAX_EXAMPLES} examples)`);
  status = run.status === 0 && failures === '0' ? 0 : 1;
} finally {
  await demo.stop();
}
process.exit(status);
