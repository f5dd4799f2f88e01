import { describe, expect, it } from 'vitest';
import { ConfigError, checkLiveSource, configFromEnv } from '../src/config.ts';

describe('settings from the environment', () => {
  it('FABSCOPE_COLLECTOR_URLS: a bare host:port means its /metrics; a path of its own is kept', () => {
    const config = configFromEnv({
      FABSCOPE_COLLECTOR_URLS: 'http://10.0.0.1:9464, http://10.0.0.2:9464/, http://10.0.0.3:9100/probe?x=1',
    });
    expect(config.collectorUrls).toEqual([
      'http://10.0.0.1:9464/metrics',
      'http://10.0.0.2:9464/metrics',
      'http://10.0.0.3:9100/probe?x=1',
    ]);
    expect(() => configFromEnv({ FABSCOPE_COLLECTOR_URLS: 'not a url' })).toThrow(ConfigError);
  });

  it('FABSCOPE_FABRIC: emulator by default, infiniband for a real subnet, anything else refused by name', () => {
    expect(configFromEnv({}).fabricSource).toBe('emulator');
    expect(configFromEnv({ FABSCOPE_FABRIC: 'infiniband' }).fabricSource).toBe('infiniband');
    expect(() => configFromEnv({ FABSCOPE_FABRIC: 'myrinet' })).toThrow(
      /FABSCOPE_FABRIC must be one of emulator, infiniband, snmp, got "myrinet"/,
    );
  });

  it('FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES: unset leaves the client’s default; 1..64 taken; else refused by name', () => {
    expect(configFromEnv({}).tsdbMaxConcurrentQueries).toBeUndefined();
    expect(configFromEnv({ FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES: '4' }).tsdbMaxConcurrentQueries).toBe(4);
    for (const bad of ['0', '2.5', '65', 'many'])
      expect(() => configFromEnv({ FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES: bad })).toThrow(
        `FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES must be 1..64, got "${bad}"`,
      );
  });

  it('FABSCOPE_LIVE_SOURCE: unset by default (the TSDB); collectors needs a TSDB and collectors to read; anything else refused by name', () => {
    expect(configFromEnv({}).liveSource).toBeUndefined();
    const both = configFromEnv({
      FABSCOPE_LIVE_SOURCE: 'collectors',
      PROMETHEUS_URL: 'http://127.0.0.1:9090',
      FABSCOPE_COLLECTOR_URLS: 'http://127.0.0.1:9464',
    });
    expect(both.liveSource).toBe('collectors');
    expect(() => checkLiveSource(both)).not.toThrow();
    expect(() => checkLiveSource({ ...both, prometheusUrl: undefined })).toThrow(/set PROMETHEUS_URL/);
    expect(() => checkLiveSource({ ...both, collectorUrls: [] })).toThrow(/set FABSCOPE_COLLECTOR_URLS/);
    // The TSDB's own live view needs neither.
    expect(() => checkLiveSource({ ...both, liveSource: 'tsdb', collectorUrls: [] })).not.toThrow();
    expect(() => checkLiveSource({ ...both, liveSource: undefined, collectorUrls: [] })).not.toThrow();
    expect(() => configFromEnv({ FABSCOPE_LIVE_SOURCE: 'pm' })).toThrow(
      'FABSCOPE_LIVE_SOURCE must be one of tsdb, collectors, got "pm"',
    );
  });
});
