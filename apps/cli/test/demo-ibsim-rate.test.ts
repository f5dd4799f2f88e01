import { configFromEnv } from '@fabscope/api';
import { FabricBuilder, generatedGuid } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningIbsimDemo, startIbsimDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

interface LinkState {
  id: string;
  bytesPerSecond: number | null;
  capacityBytesPerSecond: number;
}

// Never above the data rate: two hosts send to a third at 4x EDR, so the switch's port to it carries its full
// 12.5 GB/s. The lab's counters are the emulator's, written before each sweep and stamped with the emulator time
// they stand for: a clock run ahead of the wall clock put those stamps after the scrape, and the API read the
// port above its data rate (docs/real-fabrics.md).
describe('demo:ibsim with two full-rate flows into one host', () => {
  let demo: RunningIbsimDemo;
  beforeAll(async () => {
    const b = new FabricBuilder('edr', 'infiniband');
    b.addNode({ name: 'sw', type: 'switch', guid: generatedGuid(1, 0), portCount: 8, tier: 1 });
    for (let i = 1; i <= 3; i++) {
      b.addNode({ name: `h${i}`, type: 'host', guid: generatedGuid(0, i), portCount: 1 });
      b.connect(`h${i}`, 1, 'sw', i, 100, 'host', { widthSpeed: '4xEDR' });
    }
    demo = await startIbsimDemo({
      config: { ...configFromEnv({}), host: '127.0.0.1', port: 0 },
      routing: 'minhop',
      design: b.build(),
    });
  }, 60_000);
  afterAll(async () => {
    await demo?.stop();
  });

  it('reads no direction above its data rate over several sweeps; the counters are never stamped in the future', async () => {
    const post = await fetch(`${demo.apiUrl}/api/v1/traffic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        pattern: 'pairs',
        pairs: [
          ['h1', 'h2'],
          ['h3', 'h2'],
        ],
      }),
    });
    expect(post.status).toBe(200);
    const links = async () =>
      ((await (await fetch(`${demo.apiUrl}/api/v1/links?limit=20`)).json()) as { links: LinkState[] }).links;
    const full = (l: LinkState[]) => l.find((x) => x.id === 'sw/2->h2/1')?.bytesPerSecond ?? 0;
    await eventually(async () => expect(full(await links())).toBeGreaterThan(0.95 * 12.5e9), 20_000);
    const readings: number[] = [];
    const end = Date.now() + 8000;
    while (Date.now() < end) {
      const answer = await links();
      readings.push(full(answer));
      for (const l of answer) {
        if (l.bytesPerSecond !== null)
          expect(l.bytesPerSecond, l.id).toBeLessThanOrEqual(l.capacityBytesPerSecond);
      }
      // The collector's stamp: never after its answer came.
      const text = await (await fetch(demo.collectorUrl)).text();
      const answered = Date.now();
      const line = text.split('\n').find((s) => s.startsWith('fabscope_port_data_transmitted_bytes_total{'));
      expect(Number(line?.split(' ')[2])).toBeLessThanOrEqual(answered);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // The full direction stayed full all along: the check above was made at the data rate, not under it.
    expect(Math.min(...readings)).toBeGreaterThan(0.95 * 12.5e9);
  }, 40_000);
});
