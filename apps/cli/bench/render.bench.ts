// `npm run bench -- render`: the dashboard's main-thread work per stream tick in Chromium (Debian's,
// through playwright-core), as Chromium's own Performance metrics count it: TaskDuration, every task
// on the page's main thread (message parsing, React, D3, canvas, layout, paint scheduling, GC),
// counted in the thread's own time (the Performance domain's `threadTicks`): the CPU the main thread
// spent. The same metric in wall time is printed beside it: it also counts the time the thread
// waited for a core, and here the demo's server shares the machine's two cores with the browser and
// answers every tick at the same moment (at fat-tree-27648 a tick's task took 22–74 ms of wall time
// for 9–17 ms of the thread's, in a trace), so it measures the machine as much as the page.
// The demo runs the scenario with a permutation (every host sending), the dashboard open at 1600 ×
// 1000; over `FABSCOPE_RENDER_TICKS` stream messages (default 30) the work is summed and divided by
// the messages sent meanwhile. They are counted on a stream connection of the bench's own, which
// the server sends every tick as it sends the page's: the page reads its stream in a worker, whose
// EventSource the page's DevTools session does not see.
// Baseline, in the same run: the same page with the stream's messages not drawn (a past instant
// shown, so ticks arrive and are parsed but nothing follows them) over the same number of ticks.
// Limit: ≤ 16.7 ms of main-thread work per tick (one frame at 60 Hz) at fat-tree-1152 and at
// fat-tree-27648's heatmap.
// `FABSCOPE_RENDER_PROFILE=DIR` also writes, for each page measured, a Chromium trace of the measured
// ticks (`DIR/<scenario>-<live|past>.trace.json`: tasks, GC, layout, paint; open it in DevTools'
// Performance panel) and a CPU profile (`….cpuprofile`). Both cost the page time of their own: the
// figures of such a run are not the bench's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startDemo } from '@fabscope/test-support';
import { type CDPSession, chromium, type Page } from 'playwright-core';

type Counter = () => number;

const BIN = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));
const LIMIT_MS = 16.7;
const TICKS = Number(process.env.FABSCOPE_RENDER_TICKS ?? 30);
const SCENARIOS = (process.env.FABSCOPE_RENDER_SCENARIOS ?? 'fat-tree-1152,fat-tree-27648').split(',');
const PROFILE_DIR = process.env.FABSCOPE_RENDER_PROFILE;

/**
 * Stream messages sent so far, read on a connection of the bench's own (`data:` lines of the
 * compact stream, the page's encoding at these sizes); `stop` closes it.
 */
function countMessages(url: string): { messages: Counter; stop: () => void } {
  const controller = new AbortController();
  let messages = 0;
  void (async () => {
    const answer = await fetch(`${url}/api/v1/stream?view=compact`, { signal: controller.signal });
    if (!answer.body) return;
    const decoder = new TextDecoder();
    // The end of the text before, so a `\ndata:` split between two chunks is counted once.
    let tail = '\n';
    for await (const chunk of answer.body) {
      const text = tail + decoder.decode(chunk, { stream: true });
      for (let at = text.indexOf('\ndata:'); at !== -1; at = text.indexOf('\ndata:', at + 1)) messages++;
      tail = text.slice(-5);
    }
  })().catch(() => undefined);
  return { messages: () => messages, stop: () => controller.abort() };
}

/** Chromium's TaskDuration (seconds) on a session whose Performance domain counts in `timeDomain`. */
async function taskSeconds(session: CDPSession): Promise<number> {
  const { metrics } = (await session.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN;
}

/** With FABSCOPE_RENDER_PROFILE: a trace and a CPU profile of the page from now; `stop` writes them. */
async function startProfile(page: Page, session: CDPSession, name: string): Promise<() => Promise<void>> {
  if (!PROFILE_DIR) return async () => undefined;
  mkdirSync(PROFILE_DIR, { recursive: true });
  const browser = page.context().browser();
  await browser?.startTracing(page, { path: join(PROFILE_DIR, `${name}.trace.json`) });
  await session.send('Profiler.enable');
  await session.send('Profiler.start');
  return async () => {
    const { profile } = (await session.send('Profiler.stop')) as { profile: unknown };
    writeFileSync(join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    await browser?.stopTracing();
  };
}

/** The page's two Performance sessions: TaskDuration in the thread's time, and in wall time. */
interface Clocks {
  thread: CDPSession;
  wall: CDPSession;
}

async function openClocks(page: Page): Promise<Clocks> {
  const [thread, wall] = [await page.context().newCDPSession(page), await page.context().newCDPSession(page)];
  await thread.send('Performance.enable', { timeDomain: 'threadTicks' });
  await wall.send('Performance.enable', { timeDomain: 'timeTicks' });
  return { thread, wall };
}

/** Main-thread ms per stream message over the next `ticks` messages, in thread and in wall time. */
async function workPerTick(page: Page, clocks: Clocks, messages: Counter, ticks: number, name: string) {
  // One message first, so the measurement starts right after a tick was handled.
  const first = messages();
  await waitFor(() => messages() > first, 60_000);
  const stopProfile = await startProfile(page, clocks.wall, name);
  const start = messages();
  const before = { thread: await taskSeconds(clocks.thread), wall: await taskSeconds(clocks.wall) };
  const started = performance.now();
  await waitFor(() => messages() >= start + ticks, ticks * 15_000 + 60_000);
  const after = { thread: await taskSeconds(clocks.thread), wall: await taskSeconds(clocks.wall) };
  await stopProfile();
  const received = messages() - start;
  await page.evaluate(() => 0);
  return {
    msPerTick: ((after.thread - before.thread) * 1000) / received,
    wallMsPerTick: ((after.wall - before.wall) * 1000) / received,
    ticks: received,
    seconds: (performance.now() - started) / 1000,
  };
}

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`no stream message within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let over = 0;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
try {
  for (const scenario of SCENARIOS) {
    // fat-tree-27648's first ticks need two 10 s scrapes of 165,888 ports.
    const demo = await startDemo({ bin: BIN, scenario, readyTimeoutMs: 240_000 });
    try {
      const started = await fetch(`${demo.url}/api/v1/traffic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pattern: 'permutation' }),
      });
      if (!started.ok) throw new Error(`${scenario}: the permutation did not start: ${await started.text()}`);
      const measure = async (query: string, label: string) => {
        const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
        const clocks = await openClocks(page);
        const { messages, stop } = countMessages(demo.url);
        try {
          await page.goto(`${demo.url}/${query}`);
          // Drawn once and a few ticks in: the topology fetched, a message shown, the first frames laid out.
          // A locator, not waitForFunction: the page's Content-Security-Policy forbids eval (a string
          // predicate), and this file is compiled without the DOM's types (a function's body).
          await page.locator('[data-testid="data-age"]', { hasText: / old$/ }).waitFor({ timeout: 240_000 });
          const shown = messages();
          await waitFor(() => messages() >= shown + 2, 120_000);
          return await workPerTick(page, clocks, messages, TICKS, `${scenario}-${label}`);
        } finally {
          stop();
          await page.close();
        }
      };
      const live = await measure('', 'live');
      // The same page showing a past instant: ticks still arrive (the stream stays open) but are
      // not drawn.
      const past = await measure(
        `?at=${encodeURIComponent(new Date(Date.now() - 5_000).toISOString())}`,
        'past',
      );
      const late = live.msPerTick > LIMIT_MS;
      if (late) over++;
      console.log(
        `${scenario} main-thread work per stream tick, live with a permutation: ${live.msPerTick.toFixed(1)} ms over ${live.ticks} ticks in ${live.seconds.toFixed(0)} s (limit ${LIMIT_MS} ms)${late ? '  OVER' : ''}; in wall time ${live.wallMsPerTick.toFixed(1)} ms`,
      );
      console.log(
        `${scenario} baseline, the same page showing a past instant: ${past.msPerTick.toFixed(1)} ms per tick over ${past.ticks} ticks; in wall time ${past.wallMsPerTick.toFixed(1)} ms`,
      );
    } finally {
      await demo.stop();
    }
  }
} finally {
  await browser.close();
}
process.exit(over === 0 ? 0 : 1);
