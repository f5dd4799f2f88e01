import { configFromEnv } from '@fabscope/api';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';
import { startSeedPairs } from './seed-pairs.ts';

interface StaticLoadAnswer {
  ports: { link: string; paths: number; utilization: number | null }[];
  groups: { measuredPorts: number; ports: number; meanUtilization: number | null }[];
  measured: { time: string | null; ports: number; correlation: number | null };
}

// The static route load beside the load measured on the same ports, through the whole pipeline
// (emulator → collector → embedded store → API).
describe('static route load against the measured load', () => {
  let demo: RunningDemo | undefined;
  afterEach(async () => {
    await demo?.stop();
    demo = undefined;
  });
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${demo?.apiUrl}/api/v1${path}`);
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };

  it('each busiest port carries the utilization /links gives for its direction at the same tick', async () => {
    const config = { ...configFromEnv({}), scenario: 'ar-demo', host: '127.0.0.1', port: 0 };
    demo = await startDemo({ config, prometheus: false });

    // Idle: every switch port measured, all at 0: nothing varies, nothing to correlate.
    const idle = await eventually(async () => {
      const answer = await get<StaticLoadAnswer>('/routes/static-load?limit=1000');
      expect(answer.measured.ports).toBeGreaterThan(0);
      return answer;
    });
    const switchPorts = idle.groups.reduce((sum, g) => sum + g.ports, 0);
    expect(idle.measured.ports).toBe(switchPorts);
    expect(idle.measured.correlation).toBeNull();
    expect(idle.groups.every((g) => g.meanUtilization === 0)).toBe(true);

    // Seed 002's two pairs on static routes: both cross edge1 → core2.
    await startSeedPairs(demo.apiUrl);
    // The live /links read at the same tick (asked again until both answers name one instant).
    type Links = { time: string; links: { id: string; utilization: number | null }[] };
    const { busy, links } = await eventually(async () => {
      const busy = await get<StaticLoadAnswer>('/routes/static-load?limit=1000');
      const links = await get<Links>('/links?limit=5000');
      expect(Math.max(...busy.ports.map((p) => p.utilization ?? 0))).toBeGreaterThan(0.9);
      expect(links.time).toBe(busy.measured.time);
      return { busy, links };
    });
    expect(busy.measured.correlation).not.toBeNull();
    expect(Math.abs(busy.measured.correlation as number)).toBeLessThanOrEqual(1);
    const byId = new Map(links.links.map((l) => [l.id, l.utilization]));
    expect(busy.ports.length).toBe(switchPorts);
    for (const port of busy.ports) expect(port.utilization, port.link).toBe(byId.get(port.link));
  }, 60_000);
});
