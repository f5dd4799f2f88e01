import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiConfig, configFromEnv, type RunningApi, startApi } from '@fabscope/api';
import { createHostCollector, type MetricsServer, startMetricsServer } from '@fabscope/collectors';
import { createEmulator, startEmulatorServer, startSysfsWriter } from '@fabscope/emulator';
import { stopAll } from '@fabscope/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fabricFromConfig } from '../src/commands/topology.ts';
import { freePort, type PrometheusServer, startPrometheus } from '../src/index.ts';
import { eventually } from './eventually.ts';

const HOSTS = ['nodeA', 'nodeB', 'nodeC', 'nodeD'];

interface LinkState {
  id: string;
  utilization: number | null;
}

// Issue 5's acceptance check, for real: node_exporter (Debian prometheus-node-exporter) reads the
// emulator's live sysfs trees, a real Prometheus scrapes it and fabscope's own host agents side by
// side, and two APIs — one per set of series — must show the same host-link utilization.
describe('node_exporter series as a source', () => {
  const stops: (() => Promise<unknown> | unknown)[] = [];
  let viaNodeExporter: RunningApi;
  let viaHostAgent: RunningApi;

  beforeAll(async () => {
    const { fabric, tables } = fabricFromConfig({ scenario: 'ar-demo' });
    const emulator = createEmulator({ fabric, tables, seed: 1, startTimeMs: Date.now() });
    const server = await startEmulatorServer(emulator, { host: '127.0.0.1', port: 0, fromDateNow: true });
    stops.push(() => server.close());
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-sysfs-'));
    stops.push(() => rmSync(dir, { recursive: true, force: true }));
    // Files lag the emulator by at most one write; at 50 ms that lag moves a 10 s rate() by under 1 %.
    const sysfs = startSysfsWriter(emulator, dir, { intervalMs: 50 });
    stops.push(() => sysfs.stop());

    const nodeExporterHosts = new Map<string, string>();
    const hostAgentHosts = new Map<string, string>();
    for (const host of HOSTS) {
      const port = await freePort();
      const child: ChildProcess = spawn(
        'prometheus-node-exporter',
        [
          `--web.listen-address=127.0.0.1:${port}`,
          `--path.sysfs=${join(dir, host, 'sys')}`,
          `--path.procfs=${join(dir, host, 'proc')}`,
          '--collector.disable-defaults',
          '--collector.infiniband',
          '--collector.netdev',
          '--no-collector.netdev.netlink',
        ],
        { stdio: 'ignore' },
      );
      stops.push(async () => {
        if (child.exitCode === null) {
          child.kill();
          await once(child, 'exit');
        }
      });
      nodeExporterHosts.set(`127.0.0.1:${port}`, host);
      const agent: MetricsServer = await startMetricsServer(
        createHostCollector({ sysfs: join(dir, host, 'sys'), procfs: join(dir, host, 'proc') }).scrape,
      );
      stops.push(() => agent.close());
      hostAgentHosts.set(new URL(agent.url).host, host);
    }
    const prometheus: PrometheusServer = await startPrometheus({
      targets: [],
      extraJobs: [
        { jobName: 'node', targets: [...nodeExporterHosts.keys()] },
        { jobName: 'fabscope-host', targets: [...hostAgentHosts.keys()] },
      ],
    });
    stops.push(() => prometheus.stop());

    const base: ApiConfig = {
      ...configFromEnv({}),
      host: '127.0.0.1',
      port: 0,
      prometheusUrl: prometheus.url,
      metricsSource: 'node_exporter',
      prometheusRateWindow: '10s',
    };
    viaNodeExporter = await startApi({ ...base, nodeExporterHosts }, fabric, { tables });
    stops.push(() => viaNodeExporter.close());
    viaHostAgent = await startApi({ ...base, nodeExporterHosts: hostAgentHosts }, fabric, { tables });
    stops.push(() => viaHostAgent.close());

    emulator.startFlows({
      pattern: 'pairs',
      pairs: [
        ['nodeA', 'nodeC'],
        ['nodeB', 'nodeD'],
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await stopAll(stops);
  });

  it('shows the same host-link utilization as fabscope’s own host agent', async () => {
    const hostLinks = async (api: RunningApi) => {
      const answer = (await (await fetch(`${api.url}/api/v1/links?kind=host&sort=id`)).json()) as {
        links: LinkState[];
      };
      return new Map(answer.links.map((l) => [l.id, l.utilization]));
    };
    await eventually(async () => {
      const exporter = await hostLinks(viaNodeExporter);
      const agent = await hostLinks(viaHostAgent);
      // Seed 002, static routing: each sender's host link carries half of 99 % of line rate.
      for (const id of ['nodeA/1->edge1/1', 'nodeB/1->edge1/2', 'edge2/1->nodeC/1', 'edge2/2->nodeD/1']) {
        const u = exporter.get(id);
        expect(u, id).toBeGreaterThan(0.47);
        expect(u, id).toBeLessThan(0.52);
      }
      expect(exporter.size).toBe(8);
      for (const [id, u] of exporter) {
        expect(u, `${id} via node_exporter`).not.toBeNull();
        expect(Math.abs((u as number) - (agent.get(id) ?? Number.NaN)), id).toBeLessThanOrEqual(0.01);
      }
    }, 50_000);
  }, 75_000);
});
