import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collectorShardsFor, prometheusErrorJobFor, prometheusIntervalFor } from '../src/demo.ts';
import { FABRIC_JOB, PROMETHEUS_CONFIG, prometheusConfig, rateWindowFor } from '../src/prometheus.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Generated {
  global: Record<string, string>;
  rule_files: string[];
  scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
  remote_write?: { url: string }[];
}

describe('Prometheus configuration by fabric size', () => {
  it('keeps the shipped 1 s configuration and rules as they are', () => {
    const config = parse(prometheusConfig(['127.0.0.1:1'])) as Generated;
    expect(config.global.scrape_interval).toBe('1s');
    expect(rateWindowFor(1000)).toBe('5s');
  });

  it('at 10 s, scrapes and evaluates every 10 s with rules over 30 s that promtool accepts, named for their window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-rules-'));
    dirs.push(dir);
    const config = parse(
      prometheusConfig(['127.0.0.1:1', '127.0.0.1:2'], PROMETHEUS_CONFIG, [], {
        scrapeIntervalMs: 10_000,
        remoteWrite: ['http://127.0.0.1:8428/api/v1/write'],
        ruleDir: dir,
      }),
    ) as Generated;
    expect(config.global).toMatchObject({
      scrape_interval: '10s',
      scrape_timeout: '10s',
      evaluation_interval: '10s',
    });
    expect(
      config.scrape_configs.find((c) => c.job_name === FABRIC_JOB)?.static_configs[0]?.targets,
    ).toHaveLength(2);
    expect(config.remote_write?.[0]?.url).toBe('http://127.0.0.1:8428/api/v1/write');
    // The fast job asks for what the views read; the error counters every 30 s in their own job.
    const fast = config.scrape_configs.find(
      (c) => c.job_name === FABRIC_JOB,
    ) as Generated['scrape_configs'][number] & { params: Record<string, string[]> };
    expect(fast.params['name[]']).toContain('fabscope_port_data_transmitted_bytes_total');
    expect(fast.params['name[]']).not.toContain('fabscope_port_symbol_error_total');
    const slow = config.scrape_configs.find((c) => c.job_name === 'fabscope-fabric-errors') as typeof fast & {
      scrape_interval: string;
    };
    expect(slow.scrape_interval).toBe('30s');
    expect(slow.params['name[]']).toContain('fabscope_port_symbol_error_total');
    expect(rateWindowFor(10_000)).toBe('30s');
    const { stdout } = await promisify(execFile)('promtool', ['check', 'rules', ...config.rule_files]);
    expect(stdout).toMatch(/SUCCESS/);
    const recording = readFileSync(
      config.rule_files.find((f) => f.endsWith('recording.yml')) as string,
      'utf8',
    );
    expect(recording).toContain('record: direction:fabscope_link_data_bytes:rate30s');
    expect(recording).toContain('[30s]');
    expect(recording).not.toMatch(/rate5s|\[5s\]|interval: 1s/);
    // The alerts (minutes-long windows over every port) at the slow cadence, not every interval.
    const alerts = readFileSync(config.rule_files.find((f) => f.endsWith('alerts.yml')) as string, 'utf8');
    expect(alerts).toMatch(/interval: 30s/);
    expect(alerts).not.toMatch(/interval: (1|10)s/);
    expect(recording).toMatch(/interval: 10s/);
  });

  it('at 60 s, the stale-data alert calls a port current with a sample in the last three intervals, not one minute', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-rules-'));
    dirs.push(dir);
    const config = parse(
      prometheusConfig(['127.0.0.1:1'], PROMETHEUS_CONFIG, [], { scrapeIntervalMs: 60_000, ruleDir: dir }),
    ) as Generated;
    const alerts = readFileSync(config.rule_files.find((f) => f.endsWith('alerts.yml')) as string, 'utf8');
    expect(alerts).toContain('last_over_time(fabscope_port_data_transmitted_bytes_total[600s])');
    expect(alerts).toContain('last_over_time(fabscope_port_data_transmitted_bytes_total[180s])');
    expect(alerts).not.toMatch(/\[(1|10)m\]/);
    const { stdout } = await promisify(execFile)('promtool', ['check', 'rules', ...config.rule_files]);
    expect(stdout).toMatch(/SUCCESS/);
  });

  it('reads the direction rule from the fast job: the sender-labelled receive counter, not the per-port one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-rules-'));
    dirs.push(dir);
    const config = parse(
      prometheusConfig(['127.0.0.1:1'], PROMETHEUS_CONFIG, [], { scrapeIntervalMs: 5000, ruleDir: dir }),
    ) as Generated;
    const job = config.scrape_configs.find((c) => c.job_name === FABRIC_JOB) as {
      params?: Record<string, string[]>;
    };
    const fast = job.params?.['name[]'] ?? [];
    expect(fast).toContain('fabscope_link_data_received_bytes_total');
    expect(fast).not.toContain('fabscope_port_data_received_bytes_total');
    const recording = readFileSync(
      config.rule_files.find((f) => f.endsWith('recording.yml')) as string,
      'utf8',
    );
    expect(recording).toContain('deriv(fabscope_link_data_received_bytes_total[15s])');
    expect(recording).not.toMatch(/label_replace\(/);
    // Left to another Prometheus: no error-counter job here.
    const without = parse(
      prometheusConfig(['127.0.0.1:1'], PROMETHEUS_CONFIG, [], {
        scrapeIntervalMs: 5000,
        ruleDir: dir,
        slowJob: false,
      }),
    ) as Generated;
    expect(without.scrape_configs.map((c) => c.job_name)).not.toContain('fabscope-fabric-errors');
  });

  it('shards the demo collector on big fabrics only', () => {
    expect(collectorShardsFor(4_608)).toBe(1);
    expect(collectorShardsFor(41_472)).toBe(4);
    expect(collectorShardsFor(165_888)).toBe(4);
    expect([4_608, 41_472, 165_888].map(prometheusIntervalFor)).toEqual([1000, 20_000, 60_000]);
    // fat-tree-27648's error counters need a Prometheus of their own (docs/scaling.md).
    expect([4_608, 41_472, 165_888].map(prometheusErrorJobFor)).toEqual([true, true, false]);
  });
});
