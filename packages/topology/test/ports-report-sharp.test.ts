import { readFileSync } from 'node:fs';
import { damagedInputs, thrownBy } from '@fabscope/test-support';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError, parsePortsReportLines, parseTopology } from '../src/index.ts';

// One reader of `ibnetdiscover -p` for the collectors (its lines) and the topology (its fabric):
// both accept what a SHARP fabric prints and both refuse the same reports, with the same error.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const fabricOf = (text: string) => parseTopology(text, { format: 'ibnetdiscover-ports' });
const AN = 'Mellanox Technologies Aggregation Node';

describe('ibnetdiscover -p of a fabric with SHARP Aggregation Nodes', () => {
  const text = fixture('ports-report-sharp.out');

  it('reads each Aggregation Node as a CA of its own behind switch port 41, though it shares the switch’s GUID', () => {
    expect(parsePortsReportLines(text)).toHaveLength(11);
    const fabric = fabricOf(text);
    // Named as real sites write them: the managed switch's hostname, the adapter's host.
    const leaf = fabric.nodeByName.get('qm-leaf01');
    const an = fabric.nodes.filter((n) => n.description === AN);
    expect(an.map((n) => [n.type, n.guid, n.lid])).toEqual([
      ['host', '0x0c42a10300a2b3c0', 17],
      ['host', '0x0c42a10300a2b400', 18],
    ]);
    expect(leaf).toMatchObject({ type: 'switch', guid: '0x0c42a10300a2b3c0', lid: 2 });
    expect(fabric.links.map((l) => l.id)).toEqual([
      `${AN} (0x0c42a10300a2b3c0)/1--qm-leaf01/41`,
      'qm-leaf01/40--qm-spine01/1',
      'cn002/1--qm-leaf01/2',
      'cn001/1--qm-leaf01/1',
      `${AN} (0x0c42a10300a2b400)/1--qm-spine01/41`,
    ]);
    expect(leaf?.ports[3]?.link).toBe(-1); // 4x ???: uncabled
  });

  it('refuses, in both paths alike, a port its listings cable to two different ports', () => {
    // The leaf's port 1 listed again, now to cn002: a report that contradicts itself.
    const bad = text.replace(
      'CA    11  1 0x0c42a10300c1d2f1 4x HDR - SW     2  2',
      'CA    11  1 0x0c42a10300c1d2f1 4x HDR - SW     2  1',
    );
    const fromLines = thrownBy(() => parsePortsReportLines(bad), ParseError);
    const fromFabric = thrownBy(() => fabricOf(bad), ParseError);
    expect(fromLines?.message).toBe(
      'ibnetdiscover -p: line 11: port 1 of CA 0x0c42a10300c1d2f1 ("cn002 mlx5_0") is cabled to two different ports: SW 0x0c42a10300a2b3c0 port 1 here, SW 0x0c42a10300a2b3c0 port 2 at line 4',
    );
    expect(fromFabric?.message).toBe(fromLines?.message);
  });

  it('property: the lines are refused exactly when the fabric is refused for its cabling, with the same error', () => {
    for (const real of [text, fixture('ports-report.out'), fixture('ports-report-stderr.out')]) {
      fc.assert(
        fc.property(damagedInputs(real), (damaged) => {
          const fromLines = thrownBy(() => parsePortsReportLines(damaged), ParseError);
          const fromFabric = thrownBy(() => fabricOf(damaged), ParseError);
          if (fromLines) expect(fromFabric?.message).toBe(fromLines.message);
          // What the fabric alone refuses is its LIDs or port numbers, never a cable the lines took.
          else if (fromFabric) expect(fromFabric.message).not.toMatch(/cabled/);
        }),
        { numRuns: 300 },
      );
    }
  });
});
