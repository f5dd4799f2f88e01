import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { parseTopology, twoTierFatTree } from '@fabscope/topology';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { type RunningApi, startApi } from '../src/server.ts';

const execFileAsync = promisify(execFile);

/** A small two-tier subnet: 2 edge switches of 2 hosts, 2 cores. */
const model = twoTierFatTree({
  name: 'lab-sm',
  fabricType: 'infiniband',
  radix: 4,
  edgeCount: 2,
  coreCount: 2,
  hostsPerEdge: 2,
});

/** Polls `check` every 250 ms until it holds, for at most `timeoutMs`. */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// OpenSM on ibsim (packages/lab) stopped, then started again: /health says the subnet manager is absent, then
// present, and the event log holds one `subnet-manager` event each way (sminfo asked every 500 ms here).
describe('the subnet manager stopped and started again (OpenSM on ibsim)', () => {
  let lab: Lab | undefined;
  let api: RunningApi | undefined;
  let opensm: ChildProcess | undefined;
  afterAll(async () => {
    await api?.close();
    opensm?.kill('SIGKILL');
    await lab?.stop();
  });

  it('is an absence in /health and one event when it stops, presence and one event when it is back', async () => {
    lab = await startLab({
      net: ibsimNetFile(model),
      routing: 'minhop',
      sockName: `fabscope-sm-presence-${process.pid}-${Date.now().toString(36)}`,
    });
    const env = { ...process.env, ...lab.env };
    const fabric = parseTopology(
      (await execFileAsync('ibnetdiscover', ['-p'], { env, cwd: lab.cwd })).stdout,
    );
    const config = configFromEnv({
      PORT: '0',
      FABSCOPE_FABRIC: 'infiniband',
      FABSCOPE_LFTS: lab.lftsDumpPath,
      FABSCOPE_LFTS_INTERVAL_MS: '500',
      // Nothing listens there: this test reads the subnet manager's presence, not counters.
      FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9/metrics',
    });
    const running = await startApi(config, fabric, { tools: { env, cwd: lab.cwd } });
    api = running;
    const subnetManager = async () =>
      (
        (await running.app.inject('/api/v1/health')).json() as {
          subnetManager?: { state: string; detail: string };
        }
      ).subnetManager;
    await until(async () => (await subnetManager())?.state === 'present', 15_000, 'the SM present');
    expect((await subnetManager())?.detail).toMatch(/sm lid \d+.*SMINFO_MASTER/);

    const stoppedAt = Date.now();
    await lab.stopSm();
    await until(async () => (await subnetManager())?.state === 'absent', 30_000, 'the SM absent');
    expect((await subnetManager())?.detail).toMatch(/^no subnet manager answers SubnGet\(SMInfo\)/);

    // The same OpenSM started again, as a site restarts its SM.
    opensm = spawn('opensm', ['-R', 'minhop', '-f', join(lab.dir, 'opensm-again.log'), '-e'], {
      env: { ...env, OSM_TMP_DIR: lab.dir, OSM_CACHE_DIR: lab.dir },
      stdio: 'ignore',
      cwd: lab.dir,
    });
    await until(async () => (await subnetManager())?.state === 'present', 45_000, 'the SM back');
    const events = (
      (await running.app.inject(`/api/v1/events?from=${(stoppedAt - 1000) / 1000}`)).json() as {
        events: { kind: string; severity: string; detail: string }[];
      }
    ).events.filter((e) => e.kind === 'subnet-manager');
    expect(events.map((e) => e.severity)).toEqual(['error', 'info']);
    expect(events[0]?.detail).toMatch(/^subnet manager gone since \d\d:\d\d:\d\d: no subnet manager answers/);
    expect(events[1]?.detail).toMatch(/^subnet manager answers again after \d+ s: sminfo: sm lid/);
  }, 120_000);
});
