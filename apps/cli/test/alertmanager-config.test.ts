import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALERTMANAGER_CONFIG, alertmanagerConfig } from '../src/prometheus/alertmanager.ts';
import { alertmanagerTarget, PROMETHEUS_CONFIG, prometheusConfig } from '../src/prometheus/prometheus.ts';

const root = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempFile = (name: string, text: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-alerting-'));
  dirs.push(dir);
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

interface AmYaml {
  global?: { resolve_timeout?: string };
  route: { receiver: string; group_by: string[]; group_wait: string; group_interval: string };
  receivers: { name: string; webhook_configs?: { url: string; send_resolved: boolean }[] }[];
}
interface PromYaml {
  alerting?: {
    alertmanagers: { scheme?: string; path_prefix?: string; static_configs: { targets: string[] }[] }[];
  };
}

describe('the shipped Alertmanager configuration', () => {
  it('passes amtool check-config and routes every alert to a webhook that is told of resolutions', async () => {
    const { stdout } = await run('amtool', ['check-config', ALERTMANAGER_CONFIG]);
    expect(stdout).toMatch(/SUCCESS/);
    const config = parse(readFileSync(ALERTMANAGER_CONFIG, 'utf8')) as AmYaml;
    const receiver = config.receivers.find((r) => r.name === config.route.receiver);
    expect(receiver?.webhook_configs?.[0]).toMatchObject({ send_resolved: true });
    expect(config.route.group_by).toEqual(['alertname', 'fabric']);
  });

  it("written for the demo: the site's receiver and shorter timings, still valid for amtool", async () => {
    const text = alertmanagerConfig({
      webhookUrl: 'https://hooks.example.org/fabric?team=hpc',
      groupWait: '1s',
      groupInterval: '2s',
      resolveTimeout: '10s',
    });
    await run('amtool', ['check-config', tempFile('alertmanager.yml', text)]);
    const config = parse(text) as AmYaml;
    expect(config.receivers[0]?.webhook_configs?.[0]?.url).toBe('https://hooks.example.org/fabric?team=hpc');
    expect(config.route).toMatchObject({ group_wait: '1s', group_interval: '2s' });
    expect(config.global?.resolve_timeout).toBe('10s');
    expect(() => alertmanagerConfig({ webhookUrl: 'ftp://example.org/' })).toThrow(/http\(s\)/);
  });
});

describe("Prometheus' alerting section", () => {
  it("the shipped prometheus.yml sends to the compose stack's alertmanager; the demo replaces it, or drops it", async () => {
    const shipped = parse(readFileSync(PROMETHEUS_CONFIG, 'utf8')) as PromYaml;
    expect(shipped.alerting?.alertmanagers[0]?.static_configs[0]?.targets).toEqual(['alertmanager:9093']);
    const none = parse(prometheusConfig(['127.0.0.1:1'])) as PromYaml;
    expect(none.alerting).toBeUndefined();
    const text = prometheusConfig(['127.0.0.1:1'], PROMETHEUS_CONFIG, [], {
      alertmanagers: ['http://127.0.0.1:9093', 'https://am.example.org/alertmanager'],
    });
    const own = parse(text) as PromYaml;
    expect(own.alerting?.alertmanagers).toEqual([
      { static_configs: [{ targets: ['127.0.0.1:9093'] }] },
      {
        scheme: 'https',
        path_prefix: '/alertmanager',
        static_configs: [{ targets: ['am.example.org:443'] }],
      },
    ]);
    await run('promtool', ['check', 'config', '--syntax-only', tempFile('prometheus.yml', text)]);
    expect(() => alertmanagerTarget('ftp://example.org')).toThrow(/http\(s\)/);
  });
});

describe('docker-compose.yml: the alertmanager service', () => {
  const compose = parse(readFileSync(resolve(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { image?: string; command?: string[]; volumes?: string[]; depends_on?: object }>;
    volumes: Record<string, unknown>;
  };

  it('is pinned, reads deploy/alertmanager, listens where prometheus.yml sends, and validates offline', async () => {
    const am = compose.services.alertmanager;
    expect(am?.image).toMatch(/^\$\{ALERTMANAGER_IMAGE:-prom\/alertmanager:v\d+\.\d+\.\d+\}$/);
    expect(am?.volumes).toContain('./deploy/alertmanager:/etc/alertmanager:ro');
    expect(am?.command).toContain('--config.file=/etc/alertmanager/alertmanager.yml');
    const data = am?.volumes?.find((v) => v.endsWith(':/alertmanager'))?.split(':')[0];
    expect(data && compose.volumes[data] !== undefined).toBe(true);
    const listen = am?.command
      ?.find((c) => c.startsWith('--web.listen-address='))
      ?.split(':')
      .pop();
    const shipped = parse(readFileSync(PROMETHEUS_CONFIG, 'utf8')) as PromYaml;
    expect(shipped.alerting?.alertmanagers[0]?.static_configs[0]?.targets).toEqual([
      `alertmanager:${listen}`,
    ]);
    expect(compose.services.prometheus?.depends_on).toHaveProperty('alertmanager');
    await run('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], { cwd: root });
  });
});
