import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { configFromEnv } from '@fabscope/api';
import { stopAll } from '@fabscope/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COLLECT_FABRIC_OPTIONS } from '../src/commands/collect.ts';
import { EMULATOR_OPTIONS } from '../src/commands/emulator.ts';
import {
  FABRIC_JOB,
  PROMETHEUS_CONFIG,
  type PrometheusServer,
  prometheusConfig,
  startPrometheus,
} from '../src/prometheus/prometheus.ts';
import { eventually } from './eventually.ts';

const root = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  restart?: string;
}
const compose = parse(readFileSync(resolve(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const rootPackage = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  workspaces: string[];
};
const promConfig = parse(readFileSync(PROMETHEUS_CONFIG, 'utf8')) as {
  global: { scrape_interval: string };
  rule_files: string[];
  scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
};

function service(name: string): ComposeService {
  const s = compose.services[name];
  if (!s) throw new Error(`docker-compose.yml has no service "${name}"`);
  return s;
}

describe('Prometheus configuration and rules (promtool)', () => {
  it('the config and the rule file pass promtool check (no recording rules: the collectors write the rates)', async () => {
    await run('promtool', ['check', 'config', PROMETHEUS_CONFIG]);
    await run('promtool', ['check', 'rules', 'deploy/prometheus/rules/alerts.yml'], { cwd: root });
  });

  it('every alert is unit-tested with synthetic series (promtool test rules)', async () => {
    const { stdout } = await run('promtool', ['test', 'rules', 'deploy/prometheus/tests/rules.test.yml'], {
      cwd: root,
    });
    expect(stdout).toMatch(/SUCCESS/);
    const alerts = parse(readFileSync(resolve(root, 'deploy/prometheus/rules/alerts.yml'), 'utf8')) as {
      groups: { rules: { alert: string }[] }[];
    };
    const tests = readFileSync(resolve(root, 'deploy/prometheus/tests/rules.test.yml'), 'utf8');
    for (const rule of alerts.groups.flatMap((g) => g.rules)) {
      expect(tests).toContain(`alertname: ${rule.alert}`);
    }
  });

  it('the demo uses the same file, scraping its own collector every second with the rules loaded', () => {
    const generated = parse(prometheusConfig(['127.0.0.1:4321'])) as typeof promConfig;
    expect(generated.global.scrape_interval).toBe('1s');
    expect(generated.scrape_configs.find((c) => c.job_name === FABRIC_JOB)?.static_configs).toEqual([
      { targets: ['127.0.0.1:4321'] },
    ]);
    expect(generated.rule_files).toEqual(
      promConfig.rule_files.map((f) => resolve(root, 'deploy/prometheus', f)),
    );
  });
});

describe('docker-compose.yml matches what the project runs', () => {
  it('validates with docker-compose config -q', async () => {
    await run('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], { cwd: root });
  });

  it('runs the emulator with options the CLI accepts, on the port the collector reads', () => {
    const command = service('emulator').command ?? [];
    expect(command[0]).toBe('emulator');
    const { values } = parseArgs({ args: command.slice(1), options: EMULATOR_OPTIONS, strict: true });
    const collector = service('collector').command ?? [];
    expect(collector.slice(0, 2)).toEqual(['collect', 'fabric']);
    const fabric = parseArgs({
      args: collector.slice(2),
      options: COLLECT_FABRIC_OPTIONS,
      strict: true,
    }).values;
    expect(fabric.source).toBe('emulator');
    expect(new URL(fabric.url ?? '').port).toBe(values.listen?.split(':')[1]);
    expect(new URL(fabric.url ?? '').hostname).toBe('emulator');
  });

  it('the collector listens where prometheus.yml scrapes it', () => {
    const collector = service('collector').command ?? [];
    const { values } = parseArgs({ args: collector.slice(2), options: COLLECT_FABRIC_OPTIONS, strict: true });
    const port = values.listen.split(':')[1];
    const targets = promConfig.scrape_configs.find((c) => c.job_name === FABRIC_JOB)?.static_configs[0]
      ?.targets;
    expect(targets).toEqual([`collector:${port}`]);
  });

  it('Prometheus is pinned, reads deploy/prometheus and keeps its TSDB in a named volume', () => {
    const prometheus = service('prometheus');
    expect(prometheus.image).toMatch(/^\$\{PROMETHEUS_IMAGE:-prom\/prometheus:v\d+\.\d+\.\d+\}$/);
    expect(prometheus.volumes).toContain('./deploy/prometheus:/etc/prometheus:ro');
    expect(prometheus.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
    const data = prometheus.volumes?.find((v) => v.endsWith(':/prometheus'))?.split(':')[0];
    expect(data && compose.volumes[data] !== undefined).toBe(true);
    const listen = prometheus.command
      ?.find((c) => c.startsWith('--web.listen-address='))
      ?.split(':')
      .pop();
    expect(new URL(service('api').environment?.PROMETHEUS_URL ?? '').port).toBe(listen);
  });

  it('the API serves on the port npm start uses, with the same scenario setting', () => {
    const api = service('api');
    expect(api.command).toEqual(['serve']);
    const defaults = configFromEnv({});
    expect(api.environment?.PORT).toBe(String(defaults.port));
    expect(api.ports).toEqual([`127.0.0.1:\${FABSCOPE_PORT:-${defaults.port}}:${defaults.port}`]);
    expect(api.environment?.FABSCOPE_SCENARIO).toMatch(/ar-demo/);
    expect(new URL(api.environment?.FABSCOPE_EMULATOR_URL ?? '').hostname).toBe('emulator');
  });

  it('every service restarts and has a healthcheck', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      expect(s.restart, name).toBe('unless-stopped');
      if (name !== 'api') expect(s.healthcheck?.test.length, name).toBeGreaterThan(0);
    }
  });
});

describe('Dockerfile essentials', () => {
  const dockerfile = readFileSync(resolve(root, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const final = stages[stages.length - 1] ?? '';

  it('builds in several stages from one base image, a build argument defaulting to an official slim node', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-[a-z]+-slim$/m);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage).toMatch(/^\$\{NODE_IMAGE\} AS \w+/);
  });

  it('copies the whole tree (no workspace listed by hand), installs nothing in the final stage, runs as non-root', () => {
    const copied = dockerfile.split('\n').filter((line) => line.startsWith('COPY '));
    for (const workspace of rootPackage.workspaces)
      for (const line of copied) expect(line).not.toContain(workspace);
    expect(final).not.toMatch(/npm (ci|install)/);
    expect(final).toMatch(/^COPY --from=build \/app \.\/$/m);
    expect(final).toMatch(/^USER (?!root)\w+/m);
    expect(final).toMatch(/^HEALTHCHECK /m);
  });
});

/**
 * A Prometheus without targets, on a port chosen just before it starts: another process may take that port in
 * between, so an "address already in use" exit is retried on a fresh port (startPrometheus cannot bind port 0).
 */
async function startPrometheusRetrying(attempts = 3): Promise<PrometheusServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPrometheus({ targets: [] });
    } catch (error) {
      if (attempt >= attempts || !/address already in use/i.test(String(error))) throw error;
    }
  }
}

describe('the compose services, run as processes on loopback', () => {
  const cli = resolve(root, 'apps/cli/bin/fabscope.js');
  const stops: (() => Promise<unknown>)[] = [];
  const output: string[] = [];
  afterAll(async () => {
    await stopAll(stops);
  });

  it('serve the dashboard data through a real Prometheus', async () => {
    // Each service's own command and environment from docker-compose.yml, with container names mapped
    // to the loopback URLs the services already started bound. Each binds port 0 and says its URL, so no
    // other process can take a port between choosing and binding it (EADDRINUSE under load).
    const urls = new Map<string, string>();
    // Compose's own interpolation of ${NAME:-default}, with an empty environment as on a fresh box.
    const interpolate = (text: string) =>
      text.replace(/\$\{\w+(?::-([^}]*))?\}/g, (_m, d?: string) => d ?? '');
    const local = (text: string) =>
      interpolate(text)
        .replace(/^0\.0\.0\.0:\d+$/, '127.0.0.1:0')
        .replace(/http:\/\/(\w+):\d+/, (_m, h: string) => urls.get(h) ?? `(${h} not started)`);
    /** Spawns a compose service's command; resolves with the URL it prints once it listens. */
    const start = async (name: string) => {
      const s = service(name);
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const [k, v] of Object.entries(s.environment ?? {})) env[k] = local(String(v));
      if (env.HOST === '0.0.0.0') env.HOST = '127.0.0.1';
      if (env.PORT) env.PORT = '0';
      const child: ChildProcess = spawn(process.execPath, [cli, ...(s.command ?? []).map(local)], { env });
      const said = new Promise<string>((resolveUrl, reject) => {
        child.stdout?.on('data', (c: Buffer) => {
          output.push(`${name}: ${c}`);
          const url = /http:\/\/127\.0\.0\.1:[1-9]\d*/.exec(String(c));
          if (url) resolveUrl(url[0]);
        });
        child.once('exit', (code) => reject(new Error(`${name} exited (${code}):\n${output.join('')}`)));
      });
      child.stderr?.on('data', (c: Buffer) => output.push(`${name}: ${c}`));
      stops.push(async () => {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await once(child, 'exit');
        }
      });
      urls.set(name, await said);
    };
    // Prometheus starts with no target beside the emulator; once the collector has bound its port, Prometheus
    // is given it and reloads (SIGHUP, as in production), and the API starts against data.
    const [prometheus] = await Promise.all([startPrometheusRetrying(), start('emulator')]);
    stops.push(() => prometheus.stop());
    urls.set('prometheus', prometheus.url);
    await start('collector');
    writeFileSync(prometheus.configFile, prometheusConfig([new URL(urls.get('collector') as string).host]));
    process.kill(prometheus.pid as number, 'SIGHUP');
    await start('api');
    const api = `${urls.get('api')}/api/v1`;
    await eventually(async () => {
      const answer = await fetch(`${api}/health`).catch((error: Error) => {
        throw new Error(`${error.message}; the services said:\n${output.join('')}`);
      });
      const health = (await answer.json()) as { status: string; store: string };
      expect(health, output.join('')).toMatchObject({ status: 'ok', store: 'prometheus' });
    }, 40_000);
    const started = await fetch(`${api}/traffic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] }),
    });
    expect(started.status).toBe(200);
    await eventually(async () => {
      const summary = (await (await fetch(`${api}/summary`)).json()) as {
        hostTransmitBytesPerSecond: number;
      };
      expect(summary.hostTransmitBytesPerSecond).toBeGreaterThan(12.2e9);
    }, 30_000);

    // The Grafana dashboard's queries against the same Prometheus: each one evaluates, and the
    // panels whose legend names a port get the names by the join with fabscope_port_info.
    const dashboard = JSON.parse(
      readFileSync(resolve(root, 'deploy/grafana/fabscope-fabric.json'), 'utf8'),
    ) as {
      panels: { title: string; targets?: { expr: string; legendFormat?: string }[] }[];
    };
    const targets = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ ...t, title: p.title })));
    expect(targets.length).toBeGreaterThanOrEqual(dashboard.panels.length);
    await eventually(async () => {
      for (const { expr, legendFormat, title } of targets) {
        const url = new URL('/api/v1/query', prometheus.url);
        url.searchParams.set('query', expr.replaceAll('$fabric', '.*'));
        const answer = (await (await fetch(url)).json()) as {
          status: string;
          error?: string;
          data?: { result: { metric: Record<string, string> }[] };
        };
        expect(answer.status, `${title}: ${expr}: ${answer.error}`).toBe('success');
        if (legendFormat?.includes('{{node_name}}') && !expr.includes('increase(')) {
          const result = answer.data?.result ?? [];
          expect(result.length, `${title}: ${expr}`).toBeGreaterThan(0);
          for (const s of result) expect(s.metric.node_name, `${title}: ${expr}`).toMatch(/\S/);
        }
      }
    }, 20_000);
  }, 120_000);
});
