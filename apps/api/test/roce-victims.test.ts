import { buildScenario } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppWithEmulator } from './helper.ts';

const FULL_EGRESS = 'leaf3/1->host33/1';
const SENDERS = ['host1', 'host2', 'host3', 'host4', 'host17', 'host18', 'host19', 'host20'];

// Lossless Ethernet: an incast fills leaf3's port to host33; PFC pauses the spines' ports to leaf3, and a flow
// through one of them to another host of leaf3 is slowed though it never reaches the full port.
describe('victim flows of an incast on the RoCE leaf–spine, named where the API lists a link’s flows', () => {
  let app: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;
  let victimPath: string[] = [];

  beforeAll(async () => {
    ({ app, stop } = await buildAppWithEmulator(buildScenario('roce-leafspine')));
    const post = (payload: object) => app.inject({ method: 'POST', url: '/api/v1/traffic', payload });
    expect((await post({ pattern: 'incast', to: 'host33', from: SENDERS, job: 'incast' })).statusCode).toBe(
      200,
    );
    const victim = await post({ pattern: 'pairs', pairs: [['host9', 'host40']], job: 'victim' });
    expect(victim.statusCode).toBe(200);
    victimPath = victim.json().flows[0].path;
  });
  afterAll(async () => {
    await stop?.();
  });

  it('lists the victim on its paused spine port with the full egress that pauses it', async () => {
    const spineToLeaf3 = victimPath.find((hop) => hop.startsWith('spine') && hop.includes('->leaf3/'));
    expect(spineToLeaf3).toBeDefined();
    expect(victimPath).not.toContain(FULL_EGRESS);
    const res = await app.inject(`/api/v1/links/flows?id=${encodeURIComponent(spineToLeaf3 as string)}`);
    expect(res.statusCode).toBe(200);
    const rows: { job: string; victimOf?: string; bytesPerSecond: number }[] = res.json().flows;
    const victims = rows.filter((r) => r.victimOf !== undefined);
    expect(victims.map((r) => [r.job, r.victimOf])).toEqual([['victim', FULL_EGRESS]]);
    // The incast's own flows are not victims: they are the ones the buffer is full of.
    expect(rows.filter((r) => r.job === 'incast').every((r) => r.victimOf === undefined)).toBe(true);
    // At the incast flows' pace: an eighth of the 400 GbE egress, far below its free path's rate.
    expect(victims[0]?.bytesPerSecond).toBeLessThan(50e9 / 4);
  });
});
