import { randomBytes } from 'node:crypto';
import { freePort } from '@fabscope/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteProfileOnTheLab } from './compose-infiniband.ts';
import {
  baseImages,
  buildImage,
  buildStandIns,
  type Compose,
  composeFor,
  leftovers,
  projectName,
  removeAbandonedProjects,
} from './compose-stack.ts';
import { DOCKER, type DockerEngine, ensureDockerEngine, run } from './docker-engine.ts';
import { eventually } from './eventually.ts';

const IMAGE = 'fabscope:local';
const SERVICES = ['alertmanager', 'api', 'collector', 'emulator', 'prometheus'];
const MAX_IMAGE_BYTES = 400e6;
const DOWN_LINK = 'edge1/4--core2/1';

// One engine and one set of stand-ins for both stacks below (one file: two would race to start
// dockerd and to build the stand-ins).
let engine: DockerEngine | undefined;
const images = baseImages();
beforeAll(async () => {
  engine = await ensureDockerEngine();
  await removeAbandonedProjects();
  const started = Date.now();
  const standIns = await buildStandIns(images);
  console.log(
    `compose-stack: stand-ins ${standIns.trim() ? `built in ${(Date.now() - started) / 1000} s:\n${standIns.trim()}` : 'reused (inputs unchanged)'}`,
  );
}, 15 * 60_000);
afterAll(async () => {
  await engine?.stop();
}, 60_000);

// The container stack as a site starts it (docker-compose.yml and the Dockerfile unchanged), on
// Debian's docker.io, with local stand-ins where the official base images cannot be pulled: every
// service healthy, seed 002 through the stack's Prometheus, history kept across an API restart, an
// alert in Alertmanager, and nothing left after `down -v`.
describe('docker compose: the demo stack, built and run for real', () => {
  const project = projectName();
  const token = randomBytes(16).toString('hex');
  const ports = { api: 0, prometheus: 0, alertmanager: 0 };
  let compose: Compose | undefined;
  let downDone = false;
  const api = () => `http://127.0.0.1:${ports.api}/api/v1`;
  const send = (path: string, method: string, body?: unknown, auth = true) =>
    fetch(`${api()}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(auth ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const total = async () =>
    ((await (await fetch(`${api()}/summary`)).json()) as { hostTransmitBytesPerSecond: number | null })
      .hostTransmitBytesPerSecond;

  async function allHealthy(c: Compose): Promise<void> {
    const containers = await c.containers();
    const stuck = containers.filter((x) => x.state !== 'running' || x.health !== 'healthy');
    if (containers.length !== SERVICES.length || stuck.length > 0)
      throw new Error(`not healthy yet: ${JSON.stringify(containers)}`);
  }

  beforeAll(async () => {
    let started = Date.now();
    await buildImage(IMAGE, images.node);
    const size = Number(await run(DOCKER, ['image', 'inspect', '--format', '{{.Size}}', IMAGE]));
    console.log(
      `compose-stack: ${IMAGE} built in ${(Date.now() - started) / 1000} s on ${images.node}; ` +
        `runtime image ${(size / 1e6).toFixed(0)} MB (storage driver ${engine?.storageDriver})`,
    );
    expect(size, `${IMAGE} is ${(size / 1e6).toFixed(0)} MB`).toBeLessThanOrEqual(MAX_IMAGE_BYTES);

    ports.api = await freePort();
    ports.prometheus = await freePort();
    ports.alertmanager = await freePort();
    compose = await composeFor(project, {
      FABSCOPE_API_TOKEN: token,
      FABSCOPE_PORT: String(ports.api),
      PROMETHEUS_PORT: String(ports.prometheus),
      ALERTMANAGER_PORT: String(ports.alertmanager),
      DOCKER_BUILDKIT: '1',
      COMPOSE_DOCKER_CLI_BUILD: '1',
    });
    const c = compose;
    started = Date.now();
    // docker-compose 1.x's `up` itself fails when a service it waits on turns unhealthy.
    const withLogs = async (error: Error) => {
      throw new Error(`${error.message}\n${await c(['logs', '--tail', '40']).catch(String)}`);
    };
    await c(['up', '-d', '--build']).catch(withLogs);
    await eventually(() => allHealthy(c), 180_000, 1000).catch(withLogs);
    console.log(`compose-stack: every service healthy ${(Date.now() - started) / 1000} s after up`);
  }, 12 * 60_000);

  afterAll(async () => {
    if (compose && !downDone) await compose(['down', '-v', '--remove-orphans']).catch(console.error);
  }, 180_000);

  it('runs every service healthy as a non-root user', async () => {
    const containers = (await compose?.containers()) ?? [];
    expect(containers.map((x) => x.service).sort()).toEqual(SERVICES);
    for (const x of containers) {
      expect(x.health, x.service).toBe('healthy');
      expect(x.user, x.service).toMatch(/^(?!root$|0$)\w+/);
    }
  });

  it('serves the dashboard and reads the stack’s Prometheus', async () => {
    const page = await fetch(`http://127.0.0.1:${ports.api}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>fabscope');
    const health = (await (await fetch(`${api()}/health`)).json()) as { status: string; store: string };
    expect(health).toMatchObject({ status: 'ok', store: 'prometheus' });
    const query = new URL(`http://127.0.0.1:${ports.prometheus}/api/v1/query`);
    query.searchParams.set('query', 'count(fabscope_port_info)');
    const answer = (await (await fetch(query)).json()) as { data: { result: { value: [number, string] }[] } };
    expect(Number(answer.data.result[0]?.value[1])).toBeGreaterThan(0);
  });

  const window = { from: 0, switched: 0, to: 0 };
  const history = async () => {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const path = `/summary/history?from=${seconds(window.from)}&to=${seconds(window.to)}&step=1s`;
    const answer = await fetch(`${api()}${path}`);
    expect(answer.status).toBe(200);
    const { points } = (await answer.json()) as {
      points: { time: string; hostTransmitBytesPerSecond: number | null }[];
    };
    const inPhase = (fromMs: number, toMs: number) =>
      points
        .filter((p) => Date.parse(p.time) >= fromMs && Date.parse(p.time) <= toMs)
        .map((p) => p.hostTransmitBytesPerSecond);
    // The rates need their window to fill after each change.
    return {
      static: inPhase(window.from + 7000, window.switched - 1000),
      adaptive: inPhase(window.switched + 10_000, window.to),
    };
  };
  const inBand = (values: (number | null)[], low: number, high: number) =>
    values.length >= 5 && values.every((v) => v !== null && v >= low && v <= high);

  it('with the token, seed 002 reads ≈12.4 GB/s under static routing and ≈24.7 GB/s adaptive', async () => {
    const pairs = {
      pattern: 'pairs',
      pairs: [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeD'],
      ],
    };
    // Beyond loopback (inside its container), a change without the token is refused.
    expect((await send('/traffic', 'POST', pairs, false)).status).toBe(401);
    window.from = Date.now();
    expect((await send('/traffic', 'POST', pairs)).status).toBe(200);
    await eventually(async () => {
      const t = await total();
      expect(t).toBeGreaterThanOrEqual(12.0e9);
      expect(t).toBeLessThanOrEqual(13.0e9);
      window.switched = window.to = Date.now();
      expect(inBand((await history()).static, 12.0e9, 13.0e9)).toBe(true);
    }, 60_000);
    window.switched = Date.now();
    const ar = await send('/adaptive-routing', 'PUT', { enabled: true, threshold: 7 });
    expect(ar.status).toBe(200);
    await eventually(async () => {
      const t = await total();
      expect(t).toBeGreaterThanOrEqual(24.2e9);
      expect(t).toBeLessThanOrEqual(25.0e9);
      window.to = Date.now();
      expect(inBand((await history()).adaptive, 24.2e9, 25.0e9)).toBe(true);
    }, 60_000);
  }, 150_000);

  it('keeps the history across `restart api` (Prometheus’s volume)', async () => {
    const c = compose as Compose;
    const before = await history();
    const apiId = (await c.containers()).find((x) => x.service === 'api')?.id ?? 'no api container';
    const startedAt = () => run(DOCKER, ['inspect', '--format', '{{.State.StartedAt}}', apiId]);
    const firstStart = await startedAt();
    await c(['restart', 'api']);
    expect(await startedAt()).not.toBe(firstStart);
    await eventually(() => allHealthy(c), 90_000, 1000);
    const after = await history();
    expect(after.static.length).toBe(before.static.length);
    expect(inBand(after.static, 12.0e9, 13.0e9), JSON.stringify(after.static)).toBe(true);
    expect(inBand(after.adaptive, 24.2e9, 25.0e9), JSON.stringify(after.adaptive)).toBe(true);
  }, 150_000);

  it('sends a link-down alert through Prometheus to Alertmanager', async () => {
    expect((await send('/faults', 'POST', { type: 'link-down', link: DOWN_LINK })).status).toBe(200);
    const alerts = `http://127.0.0.1:${ports.alertmanager}/api/v2/alerts?filter=alertname%3D%22FabscopeLinkDown%22`;
    await eventually(
      async () => {
        const firing = (await (await fetch(alerts)).json()) as { labels: Record<string, string> }[];
        expect(firing.length).toBeGreaterThan(0);
        expect(firing[0]?.labels.severity).toBe('critical');
      },
      90_000,
      1000,
    );
    expect((await send('/faults', 'DELETE')).status).toBe(200);
  }, 120_000);

  it('`down -v` leaves no container, network or volume', async () => {
    expect((await leftovers(project)).some((x) => x.startsWith('volume'))).toBe(true);
    await (compose as Compose)(['down', '-v', '--remove-orphans']);
    downDone = true;
    expect(await leftovers(project)).toEqual([]);
  }, 180_000);
});

siteProfileOnTheLab(images);
