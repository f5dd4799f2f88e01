#!/usr/bin/env node
// `npm test`: every check a change must pass, from a fresh clone. Installs the system packages
// the tests drive for real (Debian chromium, prometheus, alertmanager, node_exporter, VictoriaMetrics, tmux, opa-fm, snmpsim, snmp_exporter …) when running as root, or stops and
// names them. Ends with one line "tests: N passed, N failed".
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const results = join(root, 'test-results');
const SYSTEM_PACKAGES = [
  { command: 'chromium', pkg: 'chromium', why: 'browser tests (Playwright drives Debian chromium)' },
  {
    command: 'prometheus',
    pkg: 'prometheus',
    why: 'integration and end-to-end tests against a real Prometheus',
  },
  { command: 'promtool', pkg: 'prometheus', why: 'checking the Prometheus config and rules' },
  {
    command: 'prometheus-alertmanager',
    pkg: 'prometheus-alertmanager',
    why: 'alerts through a real Alertmanager to a webhook receiver (demo --prometheus --alertmanager)',
  },
  { command: 'amtool', pkg: 'prometheus-alertmanager', why: 'checking the Alertmanager config' },
  { command: 'docker-compose', pkg: 'docker-compose', why: 'validating docker-compose.yml offline' },
  {
    command: '/usr/sbin/dockerd',
    pkg: 'docker.io',
    why: 'the compose test: the demo stack built and run on a real Docker engine',
  },
  {
    command: '/usr/sbin/debootstrap',
    pkg: 'debootstrap',
    why: "the compose test: a minimal Debian for the base images' stand-ins (no image registry here)",
  },
  {
    command: 'systemd-analyze',
    pkg: 'systemd',
    why: 'checking the deploy/systemd units (systemd-analyze verify)',
  },
  {
    command: 'prometheus-node-exporter',
    pkg: 'prometheus-node-exporter',
    why: "checking that node_exporter reads the emulator's sysfs trees",
  },
  {
    command: 'victoria-metrics',
    pkg: 'victoria-metrics',
    why: 'history through remote write into VictoriaMetrics',
  },
  {
    command: 'vmagent',
    pkg: 'victoria-metrics',
    why: 'the sharded shape: a vmagent per collector shard remote-writing into one VictoriaMetrics',
  },
  { command: 'tmux', pkg: 'tmux', why: 'the live terminal test of fabscope top' },
  {
    command: '/usr/lib/opa-fm/bin/config_check',
    pkg: 'opa-fm',
    why: "adaptive routing in opafm.xml: its sample file, and edits checked by opa-fm's config_check",
  },
  { command: 'snmpsimd', pkg: 'snmpsim', why: 'the SNMP source: recorded switches served by snmpsim' },
  { command: 'snmpbulkwalk', pkg: 'snmp', why: "the SNMP source's walks compared with snmpbulkwalk's" },
  {
    command: 'prometheus-snmp-exporter',
    pkg: 'prometheus-snmp-exporter',
    why: "the SNMP source's rates compared with snmp_exporter's on the same agent (FABSCOPE_METRICS_SOURCE)",
  },
  {
    command: 'go',
    pkg: 'golang-go',
    why: 'the gNMI source: building the fake target of github.com/openconfig/gnmi',
  },
  // The InfiniBand lab: a simulated subnet that answers real MADs, the real subnet manager and
  // diagnostics (packages/lab; the InfiniBand collector, demo:ibsim and the SM's routes are tested on it).
  { command: 'ibsim', pkg: 'ibsim-utils', why: 'the InfiniBand lab: a simulated subnet answering real MADs' },
  {
    file: '/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so',
    pkg: 'libumad2sim0',
    why: "the InfiniBand lab: the preload that connects the tools to ibsim's subnet",
  },
  {
    command: '/usr/sbin/opensm',
    pkg: 'opensm',
    why: 'the InfiniBand lab: the real subnet manager and its routing engines',
  },
  {
    command: '/usr/sbin/ibnetdiscover',
    pkg: 'infiniband-diags',
    why: 'the InfiniBand lab: ibnetdiscover, perfquery, ibtracert, ibroute, dump_fts read it',
  },
  {
    file: '/usr/lib/x86_64-linux-gnu/libibumad.so.3',
    pkg: 'libibumad3',
    why: 'the InfiniBand collector sends its MADs through libibumad',
  },
];

/** Whether `command` runs: an executable file when it is a path, else a name found on PATH. */
function onPath(command) {
  if (command.includes('/')) {
    try {
      accessSync(command, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', command], { stdio: 'ignore' }).status === 0;
}

function ensureSystemPackages() {
  const missing = SYSTEM_PACKAGES.filter((p) => (p.file ? !existsSync(p.file) : !onPath(p.command)));
  if (missing.length === 0) return;
  const pkgs = [...new Set(missing.map((p) => p.pkg))];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) {
    console.error('npm test needs these system packages, which are missing:');
    for (const p of missing) console.error(`  ${p.pkg} (for ${p.command ?? p.file}: ${p.why})`);
    console.error(
      `Install them (Debian/Ubuntu: sudo apt-get install -y ${pkgs.join(' ')}) and run npm test again.`,
    );
    process.exit(1);
  }
  console.log(`installing system packages: ${pkgs.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], {
    stdio: 'inherit',
    env,
  });
}

function step(name, command, args, env = {}) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(
    `=== ${name}: ${run.status === 0 ? 'ok' : `failed (exit ${run.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return run.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

ensureSystemPackages();
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const npx = 'npx';
let ok = true;
// Built once into the user's cache (a minute or more the first time), beside lint and the web build
// rather than after them, and before the tests so no test's timeout pays for it.
const gnmiStarted = Date.now();
const gnmiTarget = spawn('node', ['packages/collectors/test/sources/gnmi/fake-target/build.mjs'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
// Its 'close' is seen only once the synchronous steps below let the event loop run.
const gnmiBuilt = new Promise((resolve) => gnmiTarget.on('close', (code) => resolve(code === 0)));
ok = step('lint', 'npm', ['run', '--silent', 'lint']) && ok;
const built = step('build', 'npm', ['run', '--silent', 'build']);
ok = built && ok;
const gnmiOk = await gnmiBuilt;
const gnmiWaited = ((Date.now() - gnmiStarted) / 1000).toFixed(1);
console.log(`\n=== fake gNMI target: ${gnmiOk ? 'ok' : 'failed'}, ready ${gnmiWaited} s after it started`);
ok = gnmiOk && ok;
const vitestJson = join(results, 'vitest.json');
ok =
  step('unit and integration tests', npx, [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
  ]) && ok;
const playwrightJson = join(results, 'playwright.json');
if (built) {
  ok =
    step(
      'browser tests',
      npx,
      ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
      },
    ) && ok;
}

let passed = 0;
let failed = 0;
const vitest = readJson(vitestJson);
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += vitest.numFailedTests ?? 0;
  // A file that fails to load has no failed tests of its own; count it once.
  if ((vitest.numFailedTests ?? 0) === 0) failed += vitest.numFailedTestSuites ?? 0;
  if ((vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0) > 0) {
    console.error(`${vitest.numPendingTests + vitest.numTodoTests} tests were skipped: no test may skip`);
    ok = false;
  }
} else {
  failed++;
}
const playwright = built ? readJson(playwrightJson) : null;
if (playwright?.stats) {
  passed += playwright.stats.expected ?? 0;
  failed += (playwright.stats.unexpected ?? 0) + (playwright.stats.flaky ?? 0);
  if ((playwright.stats.skipped ?? 0) > 0) {
    console.error(`${playwright.stats.skipped} browser tests were skipped: no test may skip`);
    ok = false;
  }
} else {
  failed++;
}
if (!ok && failed === 0) failed = 1;
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
