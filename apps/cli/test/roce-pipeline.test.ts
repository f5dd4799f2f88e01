import { configFromEnv } from '@fabscope/api';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

// Issue 43's one vocabulary through the whole pipeline (emulator → collector → embedded store → API): an
// Ethernet port's PFC pause is its wait share, ranked and drawn as XmitWait is.
describe('lossless Ethernet congestion end to end (roce-leafspine)', () => {
  let demo: RunningDemo | undefined;
  afterAll(async () => {
    await demo?.stop();
  });
  const api = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${demo?.apiUrl}/api/v1${path}`, init);
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
    return { status: response.status, body: (await response.json()) as any };
  };

  it('an incast shows as wait on the paused ports upstream, none on the full egress itself', async () => {
    const config = { ...configFromEnv({}), scenario: 'roce-leafspine', host: '127.0.0.1', port: 0 };
    demo = await startDemo({ config, prometheus: false });
    const from = ['host1', 'host2', 'host3', 'host4', 'host17', 'host18', 'host19', 'host20'];
    const started = await api('/traffic', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'incast', to: 'host33', from, job: 'incast' }),
    });
    expect(started.status).toBe(200);
    const wait = async (id: string) => {
      const { links } = (await api('/links')).body as {
        links: { id: string; transmitWaitFraction: number | null; categories: Record<string, unknown> }[];
      };
      return links.find((l) => l.id === id);
    };
    await eventually(async () => {
      // Each sender gets an eighth of the egress while DCQCN paces it at 136 Gb/s: paused ~63 % of the time.
      const sender = await wait('host1/1->leaf1/1');
      expect(sender?.transmitWaitFraction).toBeGreaterThan(0.3);
      expect(sender?.transmitWaitFraction).toBeLessThan(1);
      // No PM categories on Ethernet, wait or not.
      expect(sender?.categories.congestion ?? null).toBeNull();
      // The full egress sends at line rate: it is not paused.
      expect((await wait('leaf3/1->host33/1'))?.transmitWaitFraction).toBe(0);
    });
  }, 60_000);
});
