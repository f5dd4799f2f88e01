// `npm run bench -- load`: the API under a busy site's load, on 127.0.0.1 only, bounded in count
// and time. The server (emulator → collector → embedded store → API, as the demo runs them) is a
// child process with a permutation running on fat-tree-1152; this process plays the clients:
//   1. 500 live dashboards on the stream (its default view) plus 200 requests/s spread over
//      /links?limit=50, /summary, /route and /topology, for FABSCOPE_LOAD_SECONDS (default 60):
//      p50/p99 per endpoint, errors, ticks received per client, the server's peak RSS;
//   2. 20 stream clients that never read, for FABSCOPE_LOAD_IDLE_SECONDS (default 60): the
//      server's RSS growth.
// FABSCOPE_LOAD_MIX=site (the default at fat-tree-27648, issue #29) is a site's scripts beside its
// dashboards instead: 10 tries of POST /traffic (a permutation) timed, then with a permutation
// running 50 stream clients and 20 requests/s over /health, /summary, /links (default page), /links
// pages (cursor), /route, /links/history, /traffic, /jobs, plus one full export every 10 s, for
// 120 s: p99 per endpoint, errors, ticks per client, the data's age (/health every second), peak RSS.
// FABSCOPE_LOAD_SERVER=demo: the server is `fabscope demo` itself (emulator, collector, embedded
// store and API as `npm start` runs them, however many processes that is) instead of load-server.ts'
// two processes; its RSS is the sum of the demo's processes.
// Exits non-zero when a figure misses its limit (the targets of the project's load requirement).
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, type IncomingMessage, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';

const SCENARIO = process.env.FABSCOPE_LOAD_SCENARIO ?? 'fat-tree-1152';
const MIX = process.env.FABSCOPE_LOAD_MIX ?? (SCENARIO === 'fat-tree-27648' ? 'site' : 'dashboards');
const SITE = MIX === 'site';
const SECONDS = Number(process.env.FABSCOPE_LOAD_SECONDS ?? (SITE ? 120 : 60));
const IDLE_SECONDS = Number(process.env.FABSCOPE_LOAD_IDLE_SECONDS ?? (SITE ? 0 : 60));
const STREAM_CLIENTS = Math.min(1000, Number(process.env.FABSCOPE_LOAD_CLIENTS ?? (SITE ? 50 : 500)));
const REQUESTS_PER_SECOND = Math.min(1000, Number(process.env.FABSCOPE_LOAD_RPS ?? (SITE ? 20 : 200)));
/** Site mix: one full export this often (ms), and tries of POST /traffic timed before the load. */
const EXPORT_EVERY_MS = 10_000;
const POST_TRIES = 10;
const IDLE_CLIENTS = 20;
/** Load before measuring starts: connections opened, code paths compiled. */
const WARMUP_SECONDS = Number(process.env.FABSCOPE_LOAD_WARMUP_SECONDS ?? 5);
const VIEW = process.env.FABSCOPE_LOAD_VIEW; // unset: the stream's default view
const SERVER = process.env.FABSCOPE_LOAD_SERVER ?? 'split';

const LIMITS = {
  p99Ms: 100,
  errors: 0,
  tickShare: 0.95,
  peakRssMiB: SITE ? 3072 : 1024,
  idleGrowthMB: 50,
  postTrafficMs: 2000,
  /** Site mix: the data's age may exceed the sampling interval by this much (s). */
  ageOverIntervalSeconds: 5,
};

/** Starts `load-server.ts` with `args` and resolves its first line (JSON) and the process. */
function startServer<T>(args: string[], profile = false): Promise<{ child: ChildProcess; ready: T }> {
  // FABSCOPE_LOAD_PROFILE=dir: the API writes a V8 CPU profile there when it stops.
  const dir = process.env.FABSCOPE_LOAD_PROFILE;
  const flags = profile && dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  const child = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', 'apps/api/bench/load-server.ts', ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`load server exited with code ${code}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => {
      resolve({ child, ready: JSON.parse(line) as T });
    });
  });
}

/** The resident set (MiB) of a process now, from /proc, with its descendants' when `tree`. */
function rssMiB(pid: number, tree = SERVER === 'demo'): number {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return 0;
  }
  let mib = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  if (tree) for (const child of childPids(pid)) mib += rssMiB(child, true);
  return mib;
}

function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * `fabscope demo` on 127.0.0.1 at SCENARIO (FABSCOPE_LOAD_SERVER=demo): its process, its API's URL
 * (from the lines it prints) and the fabric's hosts (from its /topology).
 */
async function startDemo(
  profile: boolean,
): Promise<{ child: ChildProcess; apiUrl: string; hosts: string[] }> {
  const dir = process.env.FABSCOPE_LOAD_PROFILE;
  const flags = profile && dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  const child = spawn(process.execPath, [...flags, 'apps/cli/bin/fabscope.js', 'demo'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FABSCOPE_SCENARIO: SCENARIO, HOST: '127.0.0.1', PORT: '0' },
  });
  const apiUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fabscope demo exited with code ${code}`)));
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const api = /^\s+API\s+(\S+?)\/api\/v1\//.exec(line);
      if (api) resolve(api[1] as string);
    });
  });
  const topology = (await json(new URL(apiUrl), '/api/v1/topology')) as {
    nodes: { name: string; type: string }[];
  };
  return { child, apiUrl, hosts: topology.nodes.filter((n) => n.type === 'host').map((n) => n.name) };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const DATA = Buffer.from('\ndata: ');

/** One dashboard on the stream: counts the ticks (`data:` events) it receives. */
function streamClient(
  base: URL,
  path: string,
): { ticks: () => number; dropped: () => boolean; close: () => void } {
  let ticks = 0;
  let dropped = false;
  let carry = Buffer.alloc(0);
  const req = request(
    { host: base.hostname, port: base.port, path, agent: false },
    (res: IncomingMessage) => {
      res.on('data', (chunk: Buffer) => {
        // Events start after a newline: count `\ndata: ` in the chunk, and once across the seam
        // with the previous chunk's last 6 bytes (no copy of the chunk itself).
        for (let at = chunk.indexOf(DATA); at >= 0; at = chunk.indexOf(DATA, at + DATA.length)) ticks++;
        const seam = Buffer.concat([carry, chunk.subarray(0, DATA.length - 1)]);
        const across = seam.indexOf(DATA);
        if (across >= 0 && across < carry.length) ticks++;
        if (!dropped && chunk.includes('event: dropped')) dropped = true;
        carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (DATA.length - 1))));
      });
      res.on('error', () => undefined);
    },
  );
  req.on('error', () => undefined);
  req.end();
  return { ticks: () => ticks, dropped: () => dropped, close: () => req.destroy() };
}

async function json(base: URL, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, base), {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

// The dashboards run in a process of their own (`load.bench.ts streams URL PATH COUNT`), so reading
// their streams does not delay the request timings measured here (and the other way round). It
// answers each line `ticks` or `close` on stdin with one JSON line {ticks[], dropped}.
if (process.argv[2] === 'streams') {
  const [url, path, count] = process.argv.slice(3) as [string, string, string];
  const clients = Array.from({ length: Number(count) }, () => streamClient(new URL(url), path));
  createInterface({ input: process.stdin }).on('line', (message) => {
    if (message === 'close') for (const c of clients) c.close();
    const answer = {
      ticks: clients.map((c) => c.ticks()),
      dropped: clients.filter((c) => c.dropped()).length,
    };
    process.stdout.write(`${JSON.stringify(answer)}\n`, () => {
      if (message === 'close') process.exit(0);
    });
  });
} else {
  // The emulator and collector apart from the API, as on a real site: the figures are the API's.
  // Every child is stopped however this process ends.
  const children: ChildProcess[] = [];
  process.on('exit', () => {
    for (const c of children) c.kill('SIGTERM');
  });
  const servers: ChildProcess[] = [];
  let server: { child: ChildProcess; apiUrl: string; hosts: string[] };
  if (SERVER === 'demo') {
    server = await startDemo(true);
    servers.push(server.child);
  } else {
    const pipeline = await startServer<{ emulatorUrl: string; collectorUrl: string; hosts: string[] }>([
      'pipeline',
      SCENARIO,
    ]);
    servers.push(pipeline.child);
    const api = await startServer<{ apiUrl: string }>(
      ['api', SCENARIO, pipeline.ready.emulatorUrl, pipeline.ready.collectorUrl],
      true,
    );
    servers.push(api.child);
    server = { child: api.child, apiUrl: api.ready.apiUrl, hosts: pipeline.ready.hosts };
  }
  children.push(...servers);
  const { child, apiUrl, hosts } = server;
  const pid = child.pid as number;
  console.log(
    `server: ${SERVER === 'demo' ? 'fabscope demo' : 'load-server.ts pipeline + api'} at ${SCENARIO}`,
  );
  const base = new URL(apiUrl);
  let over = 0;
  const report = (
    name: string,
    value: number,
    unit: string,
    limit: number | null,
    higherIsBetter = false,
  ) => {
    const miss = limit !== null && (higherIsBetter ? value < limit : value > limit);
    if (miss) over++;
    const shown = Number.isInteger(value) ? String(value) : value.toFixed(unit === '%' ? 1 : 2);
    console.log(
      `${name}: ${shown} ${unit}${limit === null ? '' : ` (limit ${higherIsBetter ? '≥' : '≤'} ${limit} ${unit})`}${miss ? '  MISSED' : ''}`,
    );
  };

  try {
    if (SITE) {
      // POST /traffic as a script starts a job: a permutation, stopped between tries; the last stays.
      const tries: number[] = [];
      let refused = 0;
      for (let i = 0; i < POST_TRIES; i++) {
        if (i > 0) await fetch(new URL('/api/v1/traffic', base), { method: 'DELETE' });
        const t0 = performance.now();
        const answer = await fetch(new URL('/api/v1/traffic', base), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pattern: 'permutation', seed: i + 1 }),
        });
        const ms = performance.now() - t0;
        const body = (await answer.json()) as { started?: number; message?: string };
        if (answer.status !== 200) refused++;
        tries.push(ms);
        console.log(
          `POST /traffic try ${i + 1}: HTTP ${answer.status} in ${ms.toFixed(0)} ms${body.started ? ` (${body.started} flows)` : ` ${body.message ?? ''}`}`,
        );
      }
      report('POST /traffic answered non-2xx', refused, 'tries', 0);
      report('POST /traffic slowest of the tries', Math.max(...tries), 'ms', LIMITS.postTrafficMs);
    } else {
      await json(base, '/api/v1/traffic', { pattern: 'permutation', seed: 1 });
    }
    let health = (await json(base, '/api/v1/health')) as { status: string; intervalMs: number };
    for (let i = 0; i < 100 && health.status !== 'ok'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      health = (await json(base, '/api/v1/health')) as { status: string; intervalMs: number };
    }
    console.log(
      `${SCENARIO}: permutation running, health ${health.status}, tick ${health.intervalMs} ms, view ${VIEW ?? 'default'}`,
    );

    let peakRss = rssMiB(pid);
    // Demo: each process's own peak too (the API's, the emulator's, the collector's).
    const peakByProcess = new Map<string, number>();
    const rssTimer = setInterval(() => {
      peakRss = Math.max(peakRss, rssMiB(pid));
      if (SERVER !== 'demo') return;
      for (const p of [pid, ...childPids(pid)]) {
        let name = 'api';
        try {
          const args = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
          const role = args.indexOf('__pipeline');
          if (role >= 0) name = args[role + 1] ?? 'pipeline';
        } catch {
          continue;
        }
        peakByProcess.set(name, Math.max(peakByProcess.get(name) ?? 0, rssMiB(p, false)));
      }
    }, 250);

    // Phase 1: dashboards and requests.
    const streamPath = VIEW ? `/api/v1/stream?view=${VIEW}` : '/api/v1/stream';
    const dashboards = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/api/bench/load.bench.ts',
        'streams',
        apiUrl,
        streamPath,
        String(STREAM_CLIENTS),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    children.push(dashboards);
    const answers = createInterface({ input: dashboards.stdout as NodeJS.ReadableStream });
    const ask = (message: 'ticks' | 'close') =>
      new Promise<{ ticks: number[]; dropped: number }>((resolve) => {
        answers.once('line', (line) => resolve(JSON.parse(line)));
        dashboards.stdin?.write(`${message}\n`);
      });
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const route = () => {
      const from = hosts[Math.floor(Math.random() * hosts.length)];
      const to = hosts[Math.floor(Math.random() * hosts.length)];
      return `/api/v1/route?from=${from}&to=${to === from ? hosts[(hosts.indexOf(from as string) + 1) % hosts.length] : to}`;
    };
    // Site mix: a cursor to page on (renewed every 5 s from a first page) and directions to ask
    // the history of.
    let cursor = '';
    let directionIds: string[] = [];
    const renewCursor = async () => {
      const page = (await json(base, '/api/v1/links?limit=500')) as {
        next?: string;
        links: { id: string }[];
      };
      cursor = page.next ?? '';
      directionIds = page.links.map((l) => l.id);
    };
    if (SITE) await renewCursor();
    const cursorTimer = SITE ? setInterval(() => void renewCursor().catch(() => undefined), 5000) : undefined;
    const endpoints: readonly (string | (() => string))[] = SITE
      ? [
          '/api/v1/health',
          '/api/v1/summary',
          '/api/v1/links',
          () => `/api/v1/links?cursor=${encodeURIComponent(cursor)}`,
          route,
          () => {
            const id = directionIds[Math.floor(Math.random() * directionIds.length)] as string;
            const from = new Date(Date.now() - 60_000).toISOString();
            return `/api/v1/links/history?id=${encodeURIComponent(id)}&from=${encodeURIComponent(from)}`;
          },
          '/api/v1/traffic',
          '/api/v1/jobs',
        ]
      : ['/api/v1/links?limit=50', '/api/v1/summary', route, '/api/v1/topology'];
    const names = SITE
      ? ['/health', '/summary', '/links', '/links pages', '/route', '/links/history', '/traffic', '/jobs']
      : ['/links?limit=50', '/summary', '/route', '/topology'];
    const latencies: number[][] = names.map(() => []);
    const errors: number[] = names.map(() => 0);
    const reasons = new Map<string, number>();
    const failed = (i: number, reason: string) => {
      errors[i] = (errors[i] ?? 0) + 1;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    };
    const worstBySecond: number[] = [];
    let startedAt = performance.now();
    let measuredFrom = startedAt + WARMUP_SECONDS * 1000;
    let ticksAtStart: number[] = [];
    let outstanding = 0;
    let sent = 0;
    const fire = (i: number) => {
      const target = endpoints[i] as string | (() => string);
      const path = typeof target === 'string' ? target : target();
      const started = performance.now();
      outstanding++;
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          path,
          agent,
          headers: { 'accept-encoding': 'gzip, deflate, br' },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            outstanding--;
            const ms = performance.now() - started;
            if (res.statusCode !== 200) failed(i, `HTTP ${res.statusCode} ${path.split('?')[0]}`);
            if (started < measuredFrom || res.statusCode !== 200) return;
            const second = Math.floor((started - measuredFrom) / 1000);
            worstBySecond[second] = Math.max(worstBySecond[second] ?? 0, ms);
            latencies[i]?.push(ms);
          });
        },
      );
      req.on('error', (error) => {
        outstanding--;
        failed(i, error.message);
      });
      req.end();
    };
    startedAt = performance.now();
    measuredFrom = startedAt + WARMUP_SECONDS * 1000;
    // Site mix: a full export every 10 s (read whole, thrown away), and the data's age every second.
    const exports: { status: number; ms: number; bytes: number }[] = [];
    const exportOnce = () => {
      const t0 = performance.now();
      const req = request(
        { host: base.hostname, port: base.port, path: '/api/v1/links/export', agent: false },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () =>
            exports.push({ status: res.statusCode ?? 0, ms: performance.now() - t0, bytes }),
          );
        },
      );
      req.on('error', () => exports.push({ status: 0, ms: performance.now() - t0, bytes: 0 }));
      req.end();
    };
    const exportTimer = SITE ? setInterval(exportOnce, EXPORT_EVERY_MS) : undefined;
    let oldestAge = 0;
    const ageTimer = SITE
      ? setInterval(() => {
          if (performance.now() < measuredFrom) return;
          void json(base, '/api/v1/health')
            .then((h) => {
              oldestAge = Math.max(
                oldestAge,
                (h as { lastSampleAgeSeconds: number | null }).lastSampleAgeSeconds ?? Infinity,
              );
            })
            .catch(() => undefined);
        }, 1000)
      : undefined;
    setTimeout(() => {
      void ask('ticks').then((answer) => {
        ticksAtStart = answer.ticks;
      });
    }, WARMUP_SECONDS * 1000);
    const intervalMs = health.intervalMs;
    await new Promise<void>((resolve) => {
      // Open loop: requests go out on schedule whatever the answers take.
      const timer = setInterval(() => {
        const elapsed = performance.now() - startedAt;
        if (elapsed >= (WARMUP_SECONDS + SECONDS) * 1000) {
          clearInterval(timer);
          resolve();
          return;
        }
        const due = Math.floor((elapsed / 1000) * REQUESTS_PER_SECOND);
        while (sent < due) fire(sent++ % endpoints.length);
      }, 5);
    });
    clearInterval(exportTimer);
    clearInterval(ageTimer);
    clearInterval(cursorTimer);
    const final = await ask('close');
    const ticksAtEnd = final.ticks.map((t, i) => t - (ticksAtStart[i] ?? 0));
    for (let i = 0; i < 200 && outstanding > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const unanswered = outstanding;
    agent.destroy();

    if (process.env.FABSCOPE_LOAD_VERBOSE)
      console.log(`worst latency by second: ${worstBySecond.map((v) => v.toFixed(0)).join(' ')}`);
    console.log(
      `${STREAM_CLIENTS} stream clients and ${REQUESTS_PER_SECOND} requests/s for ${SECONDS} s (${sent} requests)`,
    );
    names.forEach((name, i) => {
      const sorted = [...(latencies[i] ?? [])].sort((a, b) => a - b);
      console.log(`${name}: ${sorted.length} answers, p50 ${percentile(sorted, 50).toFixed(1)} ms`);
      // The site mix holds /health and /summary to the limit; the others are printed.
      const held = !SITE || name === '/health' || name === '/summary';
      report(`${name} p99`, percentile(sorted, 99), 'ms', held ? LIMITS.p99Ms : null);
    });
    if (reasons.size > 0 || unanswered > 0) {
      console.log(
        `errors: ${JSON.stringify(Object.fromEntries(reasons))}; unanswered at the end: ${unanswered}`,
      );
    }
    report(
      'HTTP errors (non-200 or failed)',
      errors.reduce((a, b) => a + b, 0) + unanswered,
      'requests',
      LIMITS.errors,
    );
    const expected = Math.floor((SECONDS * 1000) / intervalMs);
    const sortedTicks = [...ticksAtEnd].sort((a, b) => a - b);
    console.log(
      `ticks per client (expected ${expected}): min ${sortedTicks[0]}, p5 ${percentile(sortedTicks, 5)}, median ${percentile(sortedTicks, 50)}, max ${sortedTicks.at(-1)}; dropped ${final.dropped}`,
    );
    report(
      'clients with ≥ 95 % of ticks',
      (100 * ticksAtEnd.filter((t) => t >= LIMITS.tickShare * expected).length) / STREAM_CLIENTS,
      '%',
      100,
      true,
    );
    report('server peak RSS (dashboards + requests)', peakRss, 'MiB', LIMITS.peakRssMiB);
    if (peakByProcess.size > 0) {
      console.log(
        `peak RSS by process: ${[...peakByProcess].map(([name, mib]) => `${name} ${mib.toFixed(0)} MiB`).join(', ')}`,
      );
    }
    if (SITE) {
      for (
        let i = 0;
        i < 600 && exports.length < Math.floor(((WARMUP_SECONDS + SECONDS) * 1000) / EXPORT_EVERY_MS);
        i++
      )
        await new Promise((resolve) => setTimeout(resolve, 100));
      const ok = exports.filter((e) => e.status === 200);
      console.log(
        `exports: ${exports.length} (${exports.map((e) => `${e.status} ${(e.bytes / 1e6).toFixed(0)} MB ${(e.ms / 1000).toFixed(1)} s`).join(', ')})`,
      );
      report('exports not answered 200 whole', exports.length - ok.length, 'exports', 0);
      report(
        'oldest data seen by /health',
        oldestAge,
        's',
        intervalMs / 1000 + LIMITS.ageOverIntervalSeconds,
      );
    }

    if (IDLE_SECONDS <= 0) clearInterval(rssTimer);
    else await neverReading();
    async function neverReading() {
      // Phase 2: clients that never read, against a control period of the same length. One
      // reading client stays connected throughout, so the server encodes every tick in both; the
      // difference between the two periods' growth is what the never-reading clients cost.
      const watcher = spawn(
        process.execPath,
        ['--import', 'tsx', 'apps/api/bench/load.bench.ts', 'streams', apiUrl, streamPath, '1'],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      children.push(watcher);
      // The median of a period's samples, not its peak: a peak is where V8 happened to collect,
      // so two peaks differ by tens of MB with nothing retained; memory the clients hold stays.
      const growthOver = async (
        seconds: number,
      ): Promise<{ start: number; end: number; peak: number; median: number }> => {
        const start = rssMiB(pid);
        const samples: number[] = [];
        const until = performance.now() + seconds * 1000;
        while (performance.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          samples.push(rssMiB(pid));
        }
        samples.sort((a, b) => a - b);
        const median = samples[Math.floor(samples.length / 2)] ?? start;
        return { start, end: rssMiB(pid), peak: Math.max(start, ...samples), median };
      };
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const control = await growthOver(IDLE_SECONDS);
      let closedByServer = 0;
      const idle: Socket[] = Array.from({ length: IDLE_CLIENTS }, () => {
        const socket = connect(Number(base.port), base.hostname);
        // Never reads: no 'data' listener, so the kernel buffers fill and the server sees no drain.
        socket.write(`GET ${streamPath} HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`);
        socket.on('close', () => closedByServer++);
        socket.on('error', () => undefined);
        return socket;
      });
      const withIdle = await growthOver(IDLE_SECONDS);
      for (const s of idle) s.destroy();
      watcher.kill('SIGTERM');
      clearInterval(rssTimer);
      const mb = (mib: number) => (mib * 1048576) / 1e6;
      console.log(
        `control, 1 reading client, ${IDLE_SECONDS} s: RSS ${control.start.toFixed(0)} → ${control.end.toFixed(0)} MiB (median ${control.median.toFixed(0)}, peak ${control.peak.toFixed(0)})`,
      );
      console.log(
        `+ ${IDLE_CLIENTS} never-reading clients, ${IDLE_SECONDS} s: RSS ${withIdle.start.toFixed(0)} → ${withIdle.end.toFixed(0)} MiB (median ${withIdle.median.toFixed(0)}, peak ${withIdle.peak.toFixed(0)}); dropped by the server: ${closedByServer}`,
      );
      console.log(
        `peak over peak (GC timing, not a limit): ${mb(withIdle.peak - control.peak).toFixed(1)} MB`,
      );
      report(
        'RSS the never-reading clients hold (median over the control median)',
        mb(withIdle.median - control.median),
        'MB',
        LIMITS.idleGrowthMB,
      );
    }
  } finally {
    for (const c of servers) c.kill('SIGTERM');
  }
  process.exit(over === 0 ? 0 : 1);
}
