import { naturalCompare } from '@fabscope/contracts/names';
import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helper.ts';

describe('GET /links ranks ties in natural order, as people count ports', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({ fabric: buildScenario('fat-tree-1152') });
  });
  afterAll(async () => {
    await app.close();
  });

  it('sort=id and a ranking of equal values both list core1/2 before core1/10', async () => {
    for (const query of ['sort=id&order=asc&kind=isl', 'sort=utilization&kind=isl']) {
      const res = await app.inject(`/api/v1/links?${query}&limit=60`);
      expect(res.statusCode).toBe(200);
      const ids = (res.json().links as { id: string }[]).map((l) => l.id);
      // Before any tick every value is unknown: the order is the ties' order alone.
      expect(ids).toEqual([...ids].sort(naturalCompare));
      expect(ids).not.toEqual([...ids].sort());
      const at = (id: string) => ids.findIndex((x) => x.startsWith(id));
      expect(at('core1/2->')).toBeGreaterThanOrEqual(0);
      expect(at('core1/2->')).toBeLessThan(at('core1/10->'));
    }
  });
});
