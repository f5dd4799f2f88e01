import { configFromEnv } from '@fabscope/api';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

// Issue 4's done-when items through the whole pipeline: emulator → collector → embedded store → API.
describe('emulator scenarios end to end (embedded store)', () => {
  let demo: RunningDemo | undefined;
  afterEach(async () => {
    await demo?.stop();
    demo = undefined;
  });
  const start = async (scenario: string) => {
    const config = { ...configFromEnv({}), scenario, host: '127.0.0.1', port: 0 };
    demo = await startDemo({ config, prometheus: false });
    return demo;
  };
  const api = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${demo?.apiUrl}/api/v1${path}`, init);
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
    return { status: response.status, body: (await response.json()) as any };
  };
  const post = (path: string, body: unknown) =>
    api(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const linkGbps = async (id: string) => {
    const { links } = (await api('/links')).body as {
      links: { id: string; bytesPerSecond: number | null }[];
    };
    return ((links.find((l) => l.id === id)?.bytesPerSecond ?? Number.NaN) * 8) / 1e9;
  };

  it('seed 000: iperf -P 16 through the router: 98.6 Gb/s into eth-node, 96.9 Gb/s into opa-node (± 1.5 %)', async () => {
    await start('opa-ethernet-router');
    expect(
      (await post('/traffic', { pattern: 'iperf', from: 'opa-node', to: 'eth-node', streams: 16 })).status,
    ).toBe(200);
    await eventually(async () => {
      const gbps = await linkGbps('eth-switch/2->eth-node/1');
      expect(Math.abs(gbps / 98.6 - 1)).toBeLessThanOrEqual(0.015);
    });
    await api('/traffic', { method: 'DELETE' });
    await post('/traffic', { pattern: 'iperf', from: 'eth-node', to: 'opa-node', streams: 16 });
    await eventually(async () => {
      const gbps = await linkGbps('opa-edge/1->opa-node/1');
      expect(Math.abs(gbps / 96.9 - 1)).toBeLessThanOrEqual(0.015);
    });
  }, 60_000);

  it('fat-tree-1152: permutation (seed 7) static, then AR threshold 7 ≥ 90 % of 1152 × 12.38 GB/s', async () => {
    await start('fat-tree-1152');
    expect((await post('/traffic', { pattern: 'permutation', seed: 7 })).status).toBe(200);
    const total = async () => (await api('/summary')).body.hostTransmitBytesPerSecond as number | null;
    await eventually(async () => expect(await total()).toBeLessThan(0.75 * 1152 * 12.38e9));
    await api('/adaptive-routing', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true, threshold: 7 }),
    });
    await eventually(async () => expect(await total()).toBeGreaterThanOrEqual(0.9 * 1152 * 12.38e9), 30_000);
    const fault = await post('/faults', { type: 'link-down', link: 'edge1/25--core1/1' });
    expect(fault.status).toBe(200);
    expect((await api('/faults')).body.faults).toHaveLength(1);
  }, 90_000);
});
