import { describe, expect, it } from 'vitest';
import { compressHostList } from '../src/names.ts';

describe('host lists as Slurm writes them', () => {
  it('writes a 1,152-host job as host[1-1152]', () => {
    const hosts = Array.from({ length: 1152 }, (_, i) => `host${i + 1}`).reverse();
    expect(compressHostList(hosts)).toBe('host[1-1152]');
  });

  it('keeps zero padding per range, as Slurm expands it, and names without numbers whole', () => {
    const names = [
      'node040',
      'node001',
      'node002',
      'login',
      'node003',
      'node010',
      'node009',
      'node008',
      'node002',
    ];
    expect(compressHostList(names)).toBe('login,node[001-003,008-010,040]');
    expect(compressHostList(['n9', 'n10', 'n11', 'n08'])).toBe('n[08,9-11]');
    expect(compressHostList(['rack1-n01', 'rack1-n02', 'rack2-n01'])).toBe('rack1-n[01-02],rack2-n01');
    expect(compressHostList(['cn7-ib', 'cn8-ib', 'cn7'])).toBe('cn7,cn[7-8]-ib');
    expect(compressHostList([])).toBe('');
  });
});
