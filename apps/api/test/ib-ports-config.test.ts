import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../src/config.ts';

const withPorts = (value: string) =>
  configFromEnv({ FABSCOPE_FABRIC: 'infiniband', FABSCOPE_IB_PORTS: value });

describe('FABSCOPE_IB_PORTS: the local ports whose subnets serve watches', () => {
  it('reads device:port entries in the order given; unset means every port that is up', () => {
    expect(withPorts('mlx5_0:1,mlx5_1:1').ibPorts).toEqual([
      { ca: 'mlx5_0', port: 1 },
      { ca: 'mlx5_1', port: 1 },
    ]);
    expect(withPorts(' mlx4_0:2 , hfi1_0:1 ').ibPorts).toEqual([
      { ca: 'mlx4_0', port: 2 },
      { ca: 'hfi1_0', port: 1 },
    ]);
    expect(configFromEnv({ FABSCOPE_FABRIC: 'infiniband' }).ibPorts).toBeUndefined();
    expect(withPorts('').ibPorts).toBeUndefined();
  });

  it('refuses a bad entry, naming it', () => {
    for (const [value, bad] of [
      ['mlx5_0:1,mlx5_1', 'mlx5_1'],
      ['mlx5_0', 'mlx5_0'],
      ['mlx5_0:0', 'mlx5_0:0'],
      ['mlx5_0:1,,mlx5_1:1', ''],
      ['mlx5_0:255', 'mlx5_0:255'],
      ['mlx5 0:1', 'mlx5 0:1'],
      ['mlx5_0:1:2', 'mlx5_0:1:2'],
    ] as const) {
      expect(() => withPorts(value), value).toThrow(ConfigError);
      expect(() => withPorts(value), value).toThrow(`got "${bad}"`);
    }
    expect(() => withPorts('mlx5_0:1,mlx5_0:1')).toThrow('FABSCOPE_IB_PORTS lists "mlx5_0:1" twice');
  });

  it('reads back any list of distinct ports it writes', () => {
    const port = fc.record({
      ca: fc.stringMatching(/^[a-z][a-z0-9_]{0,10}[0-9]$/),
      port: fc.integer({ min: 1, max: 254 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(port, { minLength: 1, maxLength: 8, selector: (p) => `${p.ca}:${p.port}` }),
        (ports) => {
          expect(withPorts(ports.map((p) => `${p.ca}:${p.port}`).join(',')).ibPorts).toEqual(ports);
        },
      ),
    );
  });
});
