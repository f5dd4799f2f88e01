import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeExporter } from '@fabscope/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createHostCollector } from '../../src/index.ts';
import { FIXTURES, type Sample, samples } from '../helpers.ts';

// The real Debian prometheus-node-exporter and the host agent read the same trees: every series
// both expose must be equal. Every sysfs tree in the fixtures is read; a tree with a procfs beside
// it (procfs-<name>) gives node_exporter's netdev collector its /proc/net/dev.
const TREES = readdirSync(FIXTURES).filter((name) => name.startsWith('sysfs-'));
const FAMILIES = /^node_(infiniband|network)_/;
const empty = mkdtempSync(join(tmpdir(), 'fabscope-procfs-'));
const stops: (() => Promise<void>)[] = [];

afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  rmSync(empty, { recursive: true, force: true });
});

async function nodeExporter(sysfs: string, procfs: string): Promise<string> {
  const exporter = await startNodeExporter({ sysfs, procfs, collectors: ['infiniband', 'netdev'] });
  stops.push(exporter.stop);
  return (await fetch(exporter.url)).text();
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
