import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  collectorShardsFor,
  liveSourceFor,
  prometheusIntervalFor,
  prometheusRawJobFor,
} from '../src/demo/demo.ts';
import {
  FABRIC_JOB,
  PROMETHEUS_CONFIG,
  prometheusConfig,
  rateWindowFor,
  SLOW_JOB,
} from '../src/prometheus/prometheus.ts';

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
  it('keeps the shipped 1 s configuration and rules as they are: the alerts, no recording rules', () => {
    const config = parse(prometheusConfig(['127.0.0.1:1'])) as Generated;
    expect(config.global.scrape_interval).toBe('1s');
    expect(config.rule_files.map((f) => f.replace(/.*\//, ''))).toEqual(['alerts.yml']);
    expect(rateWindowFor(1000)).toBe('5s');
  });

  it('at 10 s, scrapes and evaluates every 10 s, the rates at the edge in the fast job, the raw counters every 30 s', async () => {
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
    // The fast job asks for what the views read: the rates at the edge, errors included (sparse),
    // and no raw counter; the raw counters every 30 s in their own job.
    const fast = config.scrape_configs.find(
      (c) => c.job_name === FABRIC_JOB,
    ) as Generated['scrape_configs'][number] & { params: Record<string, string[]> };
    const asked = fast.params['name[]'] ?? [];
    expect(asked).toContain('fabscope_link_data_bytes_per_second');
    expect(asked).toContain('fabscope_port_error_detail');
    expect(asked.filter((n) => n.startsWith('fabscope_port_') && n.endsWith('_total'))).toEqual([
      'fabscope_port_counter_resets_total',
    ]);
    const slow = config.scrape_configs.find((c) => c.job_name === SLOW_JOB) as typeof fast & {
      scrape_interval: string;
    };
    expect(slow.scrape_interval).toBe('30s');
    expect(slow.params['name[]']).toContain('fabscope_port_symbol_error_total');
    expect(slow.params['name[]']).toContain('fabscope_port_data_transmitted_bytes_total');
    expect(rateWindowFor(10_000)).toBe('30s');
    const { stdout } = await promisify(execFile)('promtool', ['check', 'rules', ...config.rule_files]);
    expect(stdout).toMatch(/SUCCESS/);
    expect(config.rule_files.some((f) => f.endsWith('recording.yml'))).toBe(false);
    // The alerts (minutes-long windows over every direction) at the slow cadence, not every interval.
    const alerts = readFileSync(config.rule_files.find((f) => f.endsWith('alerts.yml')) as string, 'utf8');
    expect(alerts).toMatch(/interval: 30s/);
    expect(alerts).not.toMatch(/interval: (1|10)s/);
  });

  it('at 60 s, the stale-data alert calls a port current with a sample in the last three intervals, not one minute', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-rules-'));
    dirs.push(dir);
    const config = parse(
      prometheusConfig(['127.0.0.1:1'], PROMETHEUS_CONFIG, [], { scrapeIntervalMs: 60_000, ruleDir: dir }),
    ) as Generated;
    const alerts = readFileSync(config.rule_files.find((f) => f.endsWith('alerts.yml')) as string, 'utf8');
    expect(alerts).toContain('last_over_time(fabscope_fabric_link_directions[180s])');
    expect(alerts).toContain(')[600s:]');
    expect(alerts).not.toMatch(/\[(1|10)m:?\]/);
    const { stdout } = await promisify(execFile)('promtool', ['check', 'rules', ...config.rule_files]);
    expect(stdout).toMatch(/SUCCESS/);
  });

  it('leaves the raw counters out when told: the views need none of them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-rules-'));
    dirs.push(dir);
    const without = parse(
      prometheusConfig(['127.0.0.1:1'], PROMETHEUS_CONFIG, [], {
        scrapeIntervalMs: 5000,
        ruleDir: dir,
        slowJob: false,
      }),
    ) as Generated;
    expect(without.scrape_configs.map((c) => c.job_name)).toEqual([FABRIC_JOB]);
  });

  it('shards the demo collector on big fabrics only', () => {
    expect(collectorShardsFor(4_608)).toBe(1);
    expect(collectorShardsFor(41_472)).toBe(4);
    expect(collectorShardsFor(165_888)).toBe(4);
    expect([4_608, 41_472, 165_888].map((ports) => prometheusIntervalFor(ports))).toEqual([
      1000, 5000, 10_000,
    ]);
    // fat-tree-27648 at 10 s only with the live view from the collectors; from the TSDB, 60 s.
    expect([4_608, 41_472, 165_888].map(liveSourceFor)).toEqual(['tsdb', 'tsdb', 'collectors']);
    expect(prometheusIntervalFor(165_888, 'tsdb')).toBe(60_000);
    // The raw counters beside the rates on small fabrics only (docs/metrics.md, "Series budget").
    expect([4_608, 41_472, 165_888].map(prometheusRawJobFor)).toEqual([true, false, false]);
  });
});
