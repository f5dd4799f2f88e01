// `npm run bench -- render`: the dashboard's main-thread work per stream tick in Chromium (Debian's,
// through playwright-core), as Chromium's own Performance metrics count it: TaskDuration, every task
// on the page's main thread (message parsing, React, D3, canvas, layout, paint scheduling, GC),
// counted in the thread's own time (the Performance domain's `threadTicks`): the CPU the main thread
// spent. The same metric in wall time is printed beside it: it also counts the time the thread
// waited for a core, and here the demo's server shares the machine's two cores with the browser and
// answers every tick at the same moment (at fat-tree-27648 a tick's task took 22–74 ms of wall time
// for 9–17 ms of the thread's, in a trace), so it measures the machine as much as the page.
// The demo runs the scenario with a permutation (every host sending), the dashboard open at 1600 ×
// 1000; over `FABSCOPE_RENDER_TICKS` stream messages (default 30), from the first message
// `FABSCOPE_RENDER_WARMUP_MS` (60 s) after the page drew its first (WARMUP_MS says why), the work is
// summed and divided by the messages sent meanwhile; the same from the third message after drawn,
// the page's load garbage included, is printed beside. They are counted on a stream connection of the bench's own, which
// the server sends every tick as it sends the page's: the page reads its stream in a worker, whose
// EventSource the page's DevTools session does not see.
// Baseline, in the same run: the same page showing a past instant 5 s old, over the same number of
// ticks: messages arrive and are parsed, the data panels do not follow them (the header's age, the
// time bar and the history window around that recent instant still do).
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
 * How long after the page drew its first message the steady figure starts. The page's load (the
 * topology decoded, every panel drawn the first time) leaves garbage that V8 collects in the
 * following tens of seconds: a major GC when its allocation limit is reached, then its memory
 * reducer's, ~8 s apart, while the page idles between ticks (at fat-tree-27648, 60–110 ms of the
 * thread in the first 45 s after drawing, in traces). That is the load's work, not a tick's; the
 * garbage the ticks make themselves, and the major GCs it brings every few ticks, fall in the
 * steady window as in any other.
 */
const WARMUP_MS = Number(process.env.FABSCOPE_RENDER_WARMUP_MS ?? 60_000);

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

/** TaskDuration on both clocks (seconds) and the stream messages sent so far, read together. */
async function reading(clocks: Clocks, messages: Counter) {
  return {
    thread: await taskSeconds(clocks.thread),
    wall: await taskSeconds(clocks.wall),
    messages: messages(),
    atMs: performance.now(),
  };
}
type Reading = Awaited<ReturnType<typeof reading>>;

/** Main-thread ms per stream message between two readings, in thread and in wall time. */
function perTick(from: Reading, to: Reading) {
  const received = to.messages - from.messages;
  return {
    msPerTick: ((to.thread - from.thread) * 1000) / received,
    wallMsPerTick: ((to.wall - from.wall) * 1000) / received,
    ticks: received,
    seconds: (to.atMs - from.atMs) / 1000,
  };
}

/**
 * Main-thread ms per stream message over `ticks` messages, twice: from the third message after
 * the page drew its first (`early`: the page's load garbage is still being collected then), and
 * from the first message WARMUP_MS after it drew (`steady`, the figure the limit applies to).
 * One message is waited for before each start, so a measurement starts right after a tick was
 * handled.
 */
async function workPerTick(
  page: Page,
  clocks: Clocks,
  messages: Counter,
  ticks: number,
  name: string,
  drawnAtMs: number,
) {
  const afterNext = async () => {
    const seen = messages();
    await waitFor(() => messages() > seen, 60_000);
    return reading(clocks, messages);
  };
  const early = await afterNext();
  const timeout = ticks * 15_000 + WARMUP_MS + 60_000;
  let earlyEnd: Reading | null = null;
  const endEarly = async () => {
    await waitFor(() => messages() >= early.messages + ticks, timeout);
    earlyEnd = await reading(clocks, messages);
  };
  const ending = endEarly();
  await waitFor(() => performance.now() >= drawnAtMs + WARMUP_MS, timeout);
  // The early window may end first: each reading is taken when its moment comes.
  const stopProfile = await startProfile(page, clocks.wall, name);
  const steady = await afterNext();
  await waitFor(() => messages() >= steady.messages + ticks, timeout);
  const steadyEnd = await reading(clocks, messages);
  await stopProfile();
  await ending;
  await page.evaluate(() => 0);
  if (!earlyEnd) throw new Error('the early window did not end');
  return { steady: perTick(steady, steadyEnd), early: perTick(early, earlyEnd) };
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
          const drawnAtMs = performance.now();
          const shown = messages();
          await waitFor(() => messages() >= shown + 2, 120_000);
          return await workPerTick(page, clocks, messages, TICKS, `${scenario}-${label}`, drawnAtMs);
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
      const late = live.steady.msPerTick > LIMIT_MS;
      if (late) over++;
      const figure = (w: ReturnType<typeof perTick>) =>
        `${w.msPerTick.toFixed(1)} ms over ${w.ticks} ticks in ${w.seconds.toFixed(0)} s; in wall time ${w.wallMsPerTick.toFixed(1)} ms`;
      console.log(
        `${scenario} main-thread work per stream tick, live with a permutation, from ${WARMUP_MS / 1000} s after drawn: ${figure(live.steady)} (limit ${LIMIT_MS} ms)${late ? '  OVER' : ''}`,
      );
      console.log(
        `${scenario}   the same from the third message after drawn (the page's load garbage still collected): ${figure(live.early)}`,
      );
      console.log(
        `${scenario} baseline, the same page showing a past instant, from ${WARMUP_MS / 1000} s after drawn: ${figure(past.steady)}; from the third message: ${past.early.msPerTick.toFixed(1)} ms`,
      );
    } finally {
      await demo.stop();
    }
  }
} finally {
  await browser.close();
}
process.exit(over === 0 ? 0 : 1);
