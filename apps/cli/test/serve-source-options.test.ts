import { configFromEnv } from '@fabscope/api';
import { describe, expect, it } from 'vitest';
import { serveSourceOptions } from '../src/serve-infiniband.ts';

const serveEnv = { FABSCOPE_FABRIC: 'infiniband' };

describe('the InfiniBand source of `fabscope serve`', () => {
  it('clears narrow counters before they saturate only with FABSCOPE_IB_RESET_COUNTERS=true', () => {
    const on = configFromEnv({ ...serveEnv, FABSCOPE_IB_RESET_COUNTERS: 'true' });
    expect(serveSourceOptions(on, '/tmp/x').resetCounters).toBe(true);
    for (const env of [serveEnv, { ...serveEnv, FABSCOPE_IB_RESET_COUNTERS: 'false' }]) {
      expect(serveSourceOptions(configFromEnv(env), '/tmp/x').resetCounters).toBe(false);
    }
  });

  it('refuses any other value, naming the variable', () => {
    expect(() => configFromEnv({ ...serveEnv, FABSCOPE_IB_RESET_COUNTERS: 'yes' })).toThrow(
      /FABSCOPE_IB_RESET_COUNTERS must be true or false, got "yes"/,
    );
  });
});
