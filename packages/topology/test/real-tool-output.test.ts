import { readFileSync } from 'node:fs';
import { thrownBy } from '@fabscope/test-support';
import { describe, expect, it } from 'vitest';
import {
  applyIbroute,
  buildForwardingTables,
  describeRoute,
  formatOpareportRoute,
  ParseError,
  parseTopology,
  routeBetween,
  switchesWithoutDump,
} from '../src/index.ts';

// What infiniband-diags and OpenSM printed for ar-demo run as a subnet (fixtures/README.md): the
// strict readers take it whole, refuse every cut of it, and name its nodes by their descriptions.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const dump = fixture('ibsim-ar-demo.topo');

describe('the real tools’ output for ar-demo', () => {
  const fabric = parseTopology(dump);

  it('reads the ibnetdiscover dump and the -p report as the same cables', () => {
    const cables = (f: ReturnType<typeof parseTopology>) =>
      f.links
        .map((l) => {
          const name = (n: string) => f.nodeByName.get(n)?.description ?? n;
          return [`${name(l.a.node)}/${l.a.port}`, `${name(l.b.node)}/${l.b.port}`].sort().join(' -- ');
        })
        .sort();
    const ports = parseTopology(fixture('ibsim-ar-demo-p.out'));
    expect(cables(fabric)).toEqual(cables(ports));
    expect(cables(fabric)).toContain('core1/1 -- edge1/3');
    expect(ports.nodeByName.get('edge1')?.ports[48]?.link).toBe(-1); // 4x SDR, nothing cabled
  });

  it('refuses every cut of the dump but the whole of it, naming a line', () => {
    for (let cut = 0; cut < dump.length; cut++) {
      const error = thrownBy(
        () => parseTopology(dump.slice(0, cut), { format: 'ibnetdiscover' }),
        ParseError,
      );
      expect(error?.line, `cut at ${cut}`).toBeGreaterThanOrEqual(1);
    }
  });

  it('takes dump_fts for every switch in strict mode, and routes print descriptions', () => {
    const tables = applyIbroute(
      fabric,
      buildForwardingTables(fabric, 'minhop'),
      fixture('ibsim-ar-demo-dump_fts.txt'),
      {
        strict: true,
      },
    );
    expect(switchesWithoutDump(fabric, tables)).toEqual([]);
    const nodeA = fabric.nodes.find((n) => n.description === 'nodeA')?.name as string;
    const nodeC = fabric.nodes.find((n) => n.description === 'nodeC')?.name as string;
    const text = formatOpareportRoute(
      fabric,
      describeRoute(fabric, routeBetween(fabric, tables, nodeA, nodeC)),
    );
    expect(text).toMatch(/^ {4}0x0000000000100001 {3}1 CA {2}nodeA\n/m);
    expect(text).toMatch(/ SW {2}edge1\n/);
    expect(text).not.toMatch(/[SH]-0000/);
  });
});
