// `npm run bench -- export`: the paged and streamed answers at fabric size (issue #29), on
// 127.0.0.1 only. The API runs in a child process of its own (its RSS is its own) on
// FABSCOPE_EXPORT_SCENARIO (default fat-tree-27648) with a store answering every port, ticking
// every 10 s as the demo does at that size; this process plays the clients and prints:
//   1. the first page of /links (no limit) per sort: time to answer, directions, bytes;
//   2. one full export (GET /links/export): rows, bytes, time, and the server's RSS above idle;
//   3. four exports at once: the fifth refused (503, Retry-After), /health's latency meanwhile.
// Exits non-zero when a figure misses its limit.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createInterface } from 'node:readline';

const SCENARIO = process.env.FABSCOPE_EXPORT_SCENARIO ?? 'fat-tree-27648';
const LIMITS = { firstPageMs: 200, exportRssAboveIdleMB: 150, healthP99Ms: 100 };

if (process.argv[2] === 'server') {
  const { buildScenario, fatTreeRouting } = await import('@fabscope/topology');
  const { buildApp } = await import('../src/app.ts');
  const { LinkIndex } = await import('../src/lib/link-index.ts');
  const { Sampler } = await import('../src/sampler.ts');
  const { emptyPortRates } = await import('../src/lib/port-rates.ts');
  type PortRates = import('../src/lib/port-rates.ts').PortRates;
  const fabric = buildScenario(process.argv[3] as string);
  const index = new LinkIndex(fabric);
  const keys = [...index.portKeys];
  let answer = 0;
  let tickStarted = 0;
  const store = {
    kind: 'embedded' as const,
    rates: async () => {
      tickStarted = performance.now();
      answer++;
      const ports = new Map<string, PortRates>();
      keys.forEach((key, i) => {
        ports.set(key, {
          ...emptyPortRates(),
          transmitBytesPerSecond: ((i * 7919 + answer * 104_729) % 1000) * 1.25e7,
          receiveBytesPerSecond: ((i * 6007 + answer) % 1000) * 1.25e7,
          transmitPacketsPerSecond: 1e6,
          receivePacketsPerSecond: 1e6,
          transmitWaitTicksPerSecond: (i % 7) * 1e7,
          transmitWaitTickSeconds: 8e-11,
          linkUp: true,
          errors: { symbolErrors: i % 101 === 0 ? 3 : 0, receiveErrors: 0, linkQualityIndicator: 5 },
        });
      });
      return { timeMs: Date.now(), ok: true, lastSampleAgeSeconds: 0, ports };
    },
    close: async () => {},
  };
  const sampler = new Sampler(store, index, 10_000);
  // The sampler's tick holds this event loop too (every direction's state computed at once):
  // said on stderr, so a slow /health answer can be told from the exports.
  sampler.onTick(() => {
    process.stderr.write(
      `  (API: tick ${answer} computed in ${(performance.now() - tickStarted).toFixed(0)} ms)\n`,
    );
  });
  const app = await buildApp({
    state: {
      fabric: { fabric, tables: fatTreeRouting(fabric), linkIndex: index },
      store,
      sampler,
      emulator: null,
    },
    listenHost: '127.0.0.1',
  });
  await sampler.sample();
  sampler.start();
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`${JSON.stringify({ url, directions: index.channels.length })}\n`);
  process.on('SIGTERM', async () => {
    await sampler.stop();
    await app.close();
    process.exit(0);
  });
} else {
  let over = 0;
  const report = (name: string, value: number, unit: string, limit: number | null) => {
    const miss = limit !== null && value > limit;
    if (miss) over++;
    const shown = Number.isInteger(value) ? String(value) : value.toFixed(1);
    console.log(
      `${name}: ${shown} ${unit}${limit === null ? '' : ` (limit ≤ ${limit} ${unit})`}${miss ? '  MISSED' : ''}`,
    );
  };
  const rssMB = (pid: number) =>
    (Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024) / 1e6;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'apps/api/bench/export.bench.ts', 'server', SCENARIO],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  process.on('exit', () => child.kill('SIGTERM'));
  const started = performance.now();
  const ready = await new Promise<{ url: string; directions: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the API exited with code ${code}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) =>
      resolve(JSON.parse(line)),
    );
  });
  const pid = child.pid as number;
  const api = `${ready.url}/api/v1`;
  console.log(
    `${SCENARIO}: ${ready.directions} directions, API up in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  /** GETs `path`, reading the answer and throwing it away: status, bytes, ms. */
  const get = (path: string) =>
    new Promise<{ status: number; bytes: number; ms: number; headers: Record<string, unknown> }>(
      (resolve, reject) => {
        const t0 = performance.now();
        const req = request(`${api}${path}`, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - t0, headers: res.headers }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      },
    );

  // 1. First pages: each sort once, after one warm-up request (the first compiles the route).
  await get('/links?limit=1&sort=id');
  for (const sort of ['utilization', 'bytesPerSecond', 'transmitWaitFraction', 'integrity']) {
    const page = await get(`/links?sort=${sort}`);
    if (page.status !== 200) throw new Error(`/links?sort=${sort}: HTTP ${page.status}`);
    report(
      `/links?sort=${sort} (no limit): first page, ${page.bytes} bytes`,
      page.ms,
      'ms',
      LIMITS.firstPageMs,
    );
  }

  // 2. One export, the server's RSS sampled every 20 ms against its idle RSS.
  await sleep(2000);
  const idleSamples: number[] = [];
  for (let i = 0; i < 20; i++) {
    idleSamples.push(rssMB(pid));
    await sleep(100);
  }
  const idle = idleSamples.sort((a, b) => a - b)[10] as number;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMB(pid));
  }, 20);
  const exported = await get('/links/export');
  clearInterval(sampler);
  if (exported.status !== 200) throw new Error(`/links/export: HTTP ${exported.status}`);
  console.log(
    `export: ${exported.headers['fabscope-directions']} directions, ${(exported.bytes / 1e6).toFixed(1)} MB in ${(exported.ms / 1000).toFixed(2)} s (${(exported.bytes / 1e6 / (exported.ms / 1000)).toFixed(0)} MB/s); server RSS idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`,
  );
  report('server RSS above idle during one export', peak - idle, 'MB', LIMITS.exportRssAboveIdleMB);

  // 3. Four exports at once, then a fifth; /health asked every 50 ms until the four are done.
  const four = Array.from({ length: 4 }, () => get('/links/export'));
  await sleep(200);
  const fifth = await get('/links/export');
  console.log(
    `fifth export while four run: HTTP ${fifth.status}, Retry-After ${fifth.headers['retry-after']}`,
  );
  if (fifth.status !== 503 || !fifth.headers['retry-after']) over++;
  let done = false;
  const all = Promise.all(four).then((answers) => {
    done = true;
    return answers;
  });
  const health: number[] = [];
  let peakFour = rssMB(pid);
  while (!done) {
    health.push((await get('/health')).ms);
    peakFour = Math.max(peakFour, rssMB(pid));
    await sleep(50);
  }
  const answers = await all;
  health.sort((a, b) => a - b);
  console.log(
    `four exports at once: ${answers.map((a) => `${a.status} ${(a.bytes / 1e6).toFixed(0)} MB`).join(', ')} in ${(Math.max(...answers.map((a) => a.ms)) / 1000).toFixed(1)} s; server RSS peak ${peakFour.toFixed(0)} MB; /health ${health.length} answers, p50 ${(health[Math.floor(health.length / 2)] ?? 0).toFixed(1)} ms, max ${(health.at(-1) ?? 0).toFixed(1)} ms`,
  );
  report(
    '/health p99 during four exports',
    health[Math.min(health.length - 1, Math.floor(0.99 * health.length))] ?? 0,
    'ms',
    LIMITS.healthP99Ms,
  );
  child.kill('SIGTERM');
  process.exit(over === 0 ? 0 : 1);
}
