import { describe, expect, it } from 'vitest';
import { type Rail, railRows } from './rails.ts';

const rail = (over: Partial<Rail>): Rail => ({
  name: 'node001/mlx5_0',
  device: 'mlx5_0',
  subnet: 'mlx5_0:1',
  guid: '0x0002c90300001011',
  lid: 7,
  links: [
    {
      port: 1,
      neighbour: { node: 'leaf01', port: 3 },
      linkId: 'node001/mlx5_0/1--leaf01/3',
      rateGbps: 100,
      widthSpeed: '4xEDR',
      linkUp: true,
    },
  ],
  ...over,
});

describe('a host’s rails on its page', () => {
  it('lists each adapter with its subnet, GUID, LID and link', () => {
    const rows = railRows([
      rail({}),
      rail({
        name: 'node001/mlx5_1',
        device: 'mlx5_1',
        subnet: 'mlx5_1:1',
        lid: 0,
        links: [
          {
            port: 1,
            neighbour: { node: 'plane2-leaf01', port: 3 },
            linkId: 'x',
            rateGbps: 200,
            linkUp: null,
          },
        ],
      }),
    ]);
    expect(rows).toEqual([
      {
        name: 'node001/mlx5_0',
        device: 'mlx5_0',
        subnet: 'mlx5_0:1',
        guid: '0x0002c90300001011',
        lid: '7',
        links: 'leaf01/3 · 4xEDR · up',
      },
      {
        name: 'node001/mlx5_1',
        device: 'mlx5_1',
        subnet: 'mlx5_1:1',
        guid: '0x0002c90300001011',
        lid: '—',
        links: 'plane2-leaf01/3 · 200 Gb/s · state not reported',
      },
    ]);
  });

  it('says a rail on the only subnet has none named, and an uncabled one so', () => {
    const [row] = railRows([rail({ subnet: undefined, links: [] })]);
    expect(row?.subnet).toBe('—');
    expect(row?.links).toBe('not cabled');
  });
});
