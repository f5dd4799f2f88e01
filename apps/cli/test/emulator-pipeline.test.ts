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

  // The emulator's own tests prove the fat-tree-1152 figures; this one proves the pipeline carries
  // what the emulator does: seed 002's two pairs, static then adaptive, then a fault.
  it('seed 002 (ar-demo): 12.4 GB/s static, 24.7 GB/s with adaptive routing, as /summary reads it', async () => {
    await start('ar-demo');
    const pairs = [
      ['nodeA', 'nodeC'],
      ['nodeB', 'nodeD'],
    ];
    expect((await post('/traffic', { pattern: 'pairs', pairs })).status).toBe(200);
    const total = async () => (await api('/summary')).body.hostTransmitBytesPerSecond as number | null;
    await eventually(async () => expect(Math.abs(((await total()) ?? 0) / 12.375e9 - 1)).toBeLessThan(0.02));
    await api('/adaptive-routing', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: true, algorithm: 2, arFrequency: 0, threshold: 7 }),
    });
    await eventually(async () => expect(Math.abs(((await total()) ?? 0) / 24.75e9 - 1)).toBeLessThan(0.02));
    const fault = await post('/faults', { type: 'link-down', link: 'edge1/4--core2/1' });
    expect(fault.status).toBe(200);
    expect((await api('/faults')).body.faults).toHaveLength(1);
  }, 60_000);
});
