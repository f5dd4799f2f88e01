import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv } from '@fabscope/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedSubnets } from '../src/serve-infiniband.ts';

describe('the subnets `fabscope serve` watches', () => {
  let root = '';
  const up = (ca: string) => {
    const dir = join(root, ca, 'ports', '1');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'link_layer'), 'InfiniBand\n');
    writeFileSync(join(dir, 'state'), '4: ACTIVE\n');
    writeFileSync(join(dir, 'phys_state'), '5: LinkUp\n');
  };
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'fabscope-sysfs-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const config = (env: Record<string, string> = {}) =>
    configFromEnv({ FABSCOPE_FABRIC: 'infiniband', ...env });

  it('one port up: the tools’ default port, as before several subnets were read', () => {
    up('mlx5_0');
    expect(servedSubnets(config(), { sysfsRoot: root })).toBeUndefined();
    expect(servedSubnets(config(), { sysfsRoot: join(root, 'none') })).toBeUndefined();
  });

  it('several up: each its own subnet, named by its port', () => {
    up('mlx5_1');
    expect(servedSubnets(config(), { sysfsRoot: root })).toEqual([
      { name: 'mlx5_0:1', localPort: { ca: 'mlx5_0', port: 1 } },
      { name: 'mlx5_1:1', localPort: { ca: 'mlx5_1', port: 1 } },
    ]);
  });

  it('FABSCOPE_IB_PORTS chooses, even one port; a harness’s subnets come first', () => {
    expect(servedSubnets(config({ FABSCOPE_IB_PORTS: 'mlx5_1:1' }), { sysfsRoot: root })).toEqual([
      { name: 'mlx5_1:1', localPort: { ca: 'mlx5_1', port: 1 } },
    ]);
    const lab = [{ name: 'plane1', env: { IBSIM_SOCKNAME: 'x' } }];
    expect(servedSubnets(config({ FABSCOPE_IB_PORTS: 'mlx5_1:1' }), { subnets: lab })).toBe(lab);
  });
});
