// `npm run bench -- dashboard-bytes`: what one open dashboard costs the network, as Chromium
// counts it. For fat-tree-1152 and fat-tree-6912 with a permutation running, `fabscope demo` is
// started as a user starts it, the dashboard is opened in Debian's chromium, and after a warm-up
// every byte the page receives (Network.dataReceived's encodedDataLength: on the wire, after
// compression; the event stream and every poll) is summed over a window. Prints KB/s per fabric
// and the share that was the event stream; exits non-zero when fat-tree-6912 is over its limit.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { benchReporter, CHROMIUM_ARGS, CHROMIUM_PATH, freePort } from '@fabscope/test-support';
import { chromium } from 'playwright-core';

const BIN = fileURLToPath(new URL('../bin/fabscope.js', import.meta.url));
const WINDOW_SECONDS = Number(process.env.FABSCOPE_BENCH_WINDOW_SECONDS ?? 30);
const WARM_UP_MS = 8000;
const CASES = [
  { scenario: 'fat-tree-1152', limitKBps: undefined },
  { scenario: 'fat-tree-6912', limitKBps: 100 },
];
const bench = benchReporter('', 1);

async function startDemo(scenario: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [BIN, 'demo'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), FABSCOPE_SCENARIO: scenario },
    stdio: 'ignore',
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`fabscope demo exited with code ${child.exitCode}`);
    const health = await fetch(`${url}/api/v1/health`)
      .then((r) => r.json() as Promise<{ status: string }>)
      .catch(() => null);
    if (health?.status === 'ok') return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`fabscope demo (${scenario}) did not report fresh data within 180 s`);
}

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS],
});
try {
  for (const { scenario, limitKBps } of CASES) {
    const demo = await startDemo(scenario);
    try {
      const started = await fetch(`${demo.url}/api/v1/traffic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pattern: 'permutation', seed: 7 }),
      });
      if (!started.ok) throw new Error(`POST /traffic: ${started.status} ${await started.text()}`);
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      const streams = new Set<string>();
      let counting = false;
      let total = 0;
      let stream = 0;
      cdp.on('Network.responseReceived', (e) => {
        if (e.response.url.includes('/api/v1/stream')) streams.add(e.requestId);
      });
      cdp.on('Network.dataReceived', (e) => {
        if (!counting) return;
        total += e.encodedDataLength;
        if (streams.has(e.requestId)) stream += e.encodedDataLength;
      });
      await page.goto(demo.url);
      await page.waitForTimeout(WARM_UP_MS);
      counting = true;
      await page.waitForTimeout(WINDOW_SECONDS * 1000);
      counting = false;
      await page.close();
      const kBps = total / 1000 / WINDOW_SECONDS;
      bench.report(`${scenario}: one open dashboard, bytes received`, kBps, 'KB/s', limitKBps);
      console.log(
        `${scenario}: event stream ${((100 * stream) / Math.max(1, total)).toFixed(0)} % of it (${(stream / 1000 / WINDOW_SECONDS).toFixed(1)} KB/s), over ${WINDOW_SECONDS} s after ${WARM_UP_MS / 1000} s of warm-up`,
      );
    } finally {
      await demo.stop();
    }
  }
} finally {
  await browser.close();
}
process.exit(bench.failed === 0 ? 0 : 1);
