import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHostCollector } from '../src/index.ts';
import { FIXTURES, type Sample, samples } from './helpers.ts';

// The real Debian prometheus-node-exporter and the host agent read the same trees: every series
// both expose must be equal. Every sysfs tree in the fixtures is read; a tree with a procfs beside
// it (procfs-<name>) gives node_exporter's netdev collector its /proc/net/dev.
const TREES = readdirSync(FIXTURES).filter((name) => name.startsWith('sysfs-'));
const FAMILIES = /^node_(infiniband|network)_/;
const empty = mkdtempSync(join(tmpdir(), 'fabscope-procfs-'));
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
      await once(child, 'exit');
    }
  }
  rmSync(empty, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function nodeExporter(sysfs: string, procfs: string): Promise<string> {
  const port = await freePort();
  const child = spawn(
    'prometheus-node-exporter',
    [
      `--web.listen-address=127.0.0.1:${port}`,
      `--path.sysfs=${sysfs}`,
      `--path.procfs=${procfs}`,
      '--collector.disable-defaults',
      '--collector.infiniband',
      '--collector.netdev',
      '--no-collector.netdev.netlink',
    ],
    { stdio: 'ignore' },
  );
  children.push(child);
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      if (response.ok) return await response.text();
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) throw error;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const key = (s: Sample) => `${s.name}${JSON.stringify(Object.entries(s.labels).sort())}`;

describe('host agent and node_exporter on the same sysfs trees', () => {
  it.each(TREES)(
    '%s: every shared series is equal',
    async (tree) => {
      const suffix = tree.slice('sysfs-'.length);
      const procfs = existsSync(join(FIXTURES, `procfs-${suffix}`))
        ? join(FIXTURES, `procfs-${suffix}`)
        : empty;
      const sysfs = join(FIXTURES, tree);
      const theirs = samples(await nodeExporter(sysfs, procfs)).filter((s) => FAMILIES.test(s.name));
      const ours = new Map(
        samples(await createHostCollector({ sysfs, procfs }).scrape())
          .filter((s) => FAMILIES.test(s.name))
          .map((s) => [key(s), s.value]),
      );
      const infiniband = theirs.filter((s) => s.name.startsWith('node_infiniband_'));
      expect(infiniband.length, 'node_exporter read the InfiniBand devices').toBeGreaterThan(10);
      const differing: string[] = [];
      let shared = 0;
      for (const s of theirs) {
        const mine = ours.get(key(s));
        if (mine === undefined) continue;
        shared++;
        if (mine !== s.value) differing.push(`${key(s)}: node_exporter ${s.value}, host agent ${mine}`);
      }
      expect(differing).toEqual([]);
      // Every InfiniBand series node_exporter has, the host agent has too.
      expect(infiniband.filter((s) => !ours.has(key(s))).map(key)).toEqual([]);
      expect(shared).toBeGreaterThanOrEqual(infiniband.length);
    },
    30_000,
  );
});
