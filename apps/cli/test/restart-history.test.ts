import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@fabscope/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';
import { BIN } from './run-cli.ts';

const BUSY = 'edge1/4->core2/1';
const DOWN_LINK = 'edge1/3--core1/1';
const ERRORS_LINK = 'edge1/4--core2/1';

interface FabricEventJson {
  time: string;
  kind: string;
  subject: string;
  detail: string;
}

// The embedded store as a site runs it, killed with SIGKILL and started again on the same data
// directory (FABSCOPE_DATA_DIR, FABSCOPE_EVENTS_DIR): the history, the link-state and threshold
// events from before the kill are answered as before it.
describe('fabscope demo (embedded store) killed with SIGKILL and started again', () => {
  const data = mkdtempSync(join(tmpdir(), 'fabscope-restart-'));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  });

  async function start(port: number): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
    const child = spawn(process.execPath, [BIN, 'demo'], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        FABSCOPE_SCENARIO: 'ar-demo',
        FABSCOPE_DATA_DIR: join(data, 'state'),
        FABSCOPE_EVENTS_DIR: join(data, 'events'),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const url = `http://127.0.0.1:${port}/api/v1`;
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`fabscope demo exited: ${stderr}`);
      const health = (await (await fetch(`${url}/health`)).json()) as { status: string };
      expect(health.status).toBe('ok');
    }, 20_000);
    return { child, url, stderr: () => stderr };
  }

  // biome-ignore lint/suspicious/noExplicitAny: JSON answers compared whole
  const get = async (url: string): Promise<any> => {
    const answer = await fetch(url);
    expect(answer.status, url).toBe(200);
    return answer.json();
  };
  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers the history, link states and threshold events from before the kill', async () => {
    const port = await freePort();
    const first = await start(port);
    const startedAt = new Date(Date.now() - 1000).toISOString();
    expect(
      (await post(`${first.url}/traffic`, { pattern: 'pairs', pairs: [['nodeA', 'nodeC']] })).status,
    ).toBe(200);
    expect((await post(`${first.url}/faults`, { type: 'link-down', link: DOWN_LINK })).status).toBe(200);
    expect(
      (await post(`${first.url}/faults`, { type: 'symbol-errors', link: ERRORS_LINK, rate: 1000 })).status,
    ).toBe(200);
    const eventsUrl = (url: string) => `${url}/events?from=${encodeURIComponent(startedAt)}`;
    const events: FabricEventJson[] = await eventually(async () => {
      const { events } = (await get(eventsUrl(first.url))) as { events: FabricEventJson[] };
      expect(events.some((e) => e.kind === 'link-state' && e.subject === DOWN_LINK)).toBe(true);
      expect(events.some((e) => e.kind === 'threshold' && e.subject.includes('edge1/4'))).toBe(true);
      return events;
    }, 15_000);
    // A few seconds of history with the pair running, then the questions asked of it.
    const busySince = await eventually(async () => {
      const { links } = await get(`${first.url}/links?sort=id`);
      const busy = links.find((l: { id: string }) => l.id === BUSY);
      expect(busy.utilization).toBeGreaterThan(0.5);
      return Date.now();
    }, 10_000);
    // Polled until the running demo has recorded a few seconds of it (not a fixed sleep).
    const { historyUrl, instantUrl, summaryUrl, before } = await eventually(async () => {
      const toMs = Date.now() - 1500;
      expect(toMs).toBeGreaterThan(busySince + 1500);
      const range = `from=${(busySince - 2000) / 1000}&to=${toMs / 1000}&step=1`;
      const urls = {
        historyUrl: (url: string) =>
          `${url}/links/history?id=${BUSY}&id=${DOWN_LINK.replace('--', '->')}&${range}`,
        instantUrl: (url: string) => `${url}/links?time=${(busySince + 1500) / 1000}&sort=id`,
        summaryUrl: (url: string) => `${url}/summary/history?${range}`,
      };
      const history = await get(urls.historyUrl(first.url));
      const busyPoints = history.series[0].points as { bytesPerSecond: number | null }[];
      expect(busyPoints.filter((p) => (p.bytesPerSecond ?? 0) > 0).length).toBeGreaterThanOrEqual(3);
      const instant = await get(urls.instantUrl(first.url));
      const summary = await get(urls.summaryUrl(first.url));
      return { ...urls, before: { history, instant, summary } };
    }, 15_000);

    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const killedAt = Date.now();
    const second = await start(port);
    // The same answers, read back from disk; the events from before the kill, and the new ones.
    expect(await get(historyUrl(second.url))).toEqual(before.history);
    expect(await get(instantUrl(second.url))).toEqual(before.instant);
    expect(await get(summaryUrl(second.url))).toEqual(before.summary);
    const after = (await get(eventsUrl(second.url))).events as FabricEventJson[];
    expect(after.filter((e) => Date.parse(e.time) < killedAt - 1000)).toEqual(
      expect.arrayContaining(events.filter((e) => Date.parse(e.time) < killedAt - 1000)),
    );
    expect(second.stderr()).not.toMatch(/history/);
    const files = readdirSync(join(data, 'state', 'history'));
    expect(files).toHaveLength(1);
    // One segment per start (one more if a 10-minute window ended meanwhile).
    const segments = readdirSync(join(data, 'state', 'history', files[0] as string)).filter((n) =>
      n.endsWith('.arrows'),
    );
    expect(segments.length).toBeGreaterThanOrEqual(2);
    expect(segments.length).toBeLessThanOrEqual(3);
  }, 45_000);
});
