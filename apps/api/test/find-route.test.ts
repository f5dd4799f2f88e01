import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helper.ts';

describe('GET /find: the Find box’s type-ahead', () => {
  const fabric = buildScenario('ar-demo');
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({ fabric });
  });
  afterAll(async () => {
    await app.close();
  });
  const get = async (query: string) => {
    const res = await app.inject(`/api/v1/find?${query}`);
    return { status: res.statusCode, body: res.json() };
  };

  it('offers nodeA–nodeD for "nod" and nodeA, exactly, for "NODEA"', async () => {
    const nod = await get('q=nod');
    expect(nod.status).toBe(200);
    expect(nod.body.matches.map((m: { target: string }) => m.target)).toEqual([
      'nodeA',
      'nodeB',
      'nodeC',
      'nodeD',
    ]);
    expect(nod.body.total).toBe(4);
    expect((await get('q=NODEA')).body.matches).toEqual([
      { target: 'nodeA', type: 'host', field: 'name', text: 'nodeA', rank: 'exact' },
    ]);
  });

  it('lists a page and says how many matched; ports by node/port; a GUID by any part of it', async () => {
    const page = await get('q=e&limit=2');
    expect(page.body.matches).toHaveLength(2);
    expect(page.body.total).toBeGreaterThan(2);
    expect((await get('q=core2/')).body.matches.map((m: { target: string }) => m.target)).toEqual([
      'core2/1',
      'core2/2',
    ]);
    const guid = fabric.nodeByName.get('core1')?.guid.slice(-6) ?? '';
    expect((await get(`q=${guid}`)).body.matches[0]).toMatchObject({
      target: 'core1',
      field: 'guid',
      rank: 'substring',
    });
  });

  it('answers nothing found with an empty list, and a bad question with 400', async () => {
    expect((await get('q=nowhere')).body).toEqual({ query: 'nowhere', matches: [], total: 0 });
    expect((await get('q=')).status).toBe(400);
    expect((await get('q=a&limit=1000')).status).toBe(400);
  });
});
