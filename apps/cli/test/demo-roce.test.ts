import { configFromEnv } from '@fabscope/api';
import { type Fabric, FabricBuilder, generatedGuid } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRoceDemo, startRoceDemo } from '../src/index.ts';
import { eventually } from './eventually.ts';

interface LinkState {
  id: string;
  utilization: number | null;
}

/** 2 leaves × 2 hosts, 2 spines, 100 GbE. */
function leafSpine(): Fabric {
  const b = new FabricBuilder('roce-small', 'ethernet');
  for (let h = 1; h <= 4; h++)
    b.addNode({ name: `host${h}`, type: 'host', guid: generatedGuid(0, h), portCount: 1 });
  for (let l = 1; l <= 2; l++)
    b.addNode({ name: `leaf${l}`, type: 'switch', guid: generatedGuid(1, l), portCount: 4, tier: 1 });
  for (let s = 1; s <= 2; s++)
    b.addNode({ name: `spine${s}`, type: 'switch', guid: generatedGuid(1, 10 + s), portCount: 2, tier: 2 });
  for (let l = 1; l <= 2; l++) {
    for (let h = 1; h <= 2; h++) b.connect(`host${(l - 1) * 2 + h}`, 1, `leaf${l}`, h, 100);
    for (let s = 1; s <= 2; s++) b.connect(`leaf${l}`, 2 + s, `spine${s}`, l, 100);
  }
  return b.build();
}

const design = leafSpine();
let demo: RunningRoceDemo;

beforeAll(async () => {
  demo = await startRoceDemo({
    config: {
      ...configFromEnv({}),
      host: '127.0.0.1',
      port: 0,
      sampleIntervalMs: 3000,
      defaultDataDir: undefined,
    },
    design,
  });
}, 90_000);

afterAll(async () => {
  await demo?.stop();
});

describe('demo:roce: the emulated leaf–spine as simulated switches, discovered by LLDP', () => {
  it('draws the emulated cabling, and traffic started from the API reaches the ISLs through snmpsim', async () => {
    const cables = (f: Fabric) => f.links.map((l) => l.id).sort();
    expect(cables(demo.fabric)).toEqual(cables(design));
    const post = await fetch(`${demo.apiUrl}/api/v1/traffic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'pairs', pairs: [['host1', 'host3']] }),
    });
    expect(post.status).toBe(200);
    // The recordings are rewritten with the new rates and snmpsimd restarted; then a sweep reads them.
    await eventually(async () => {
      const answer = await fetch(`${demo.apiUrl}/api/v1/links?kind=isl&sort=utilization&order=desc&limit=8`);
      const { links } = (await answer.json()) as { links: LinkState[] };
      expect(links[0]?.utilization ?? 0).toBeGreaterThan(0.5);
    }, 90_000);
  }, 120_000);
});
