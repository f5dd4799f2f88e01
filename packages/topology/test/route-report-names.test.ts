import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildForwardingTables,
  buildScenario,
  describeRoute,
  formatOpareportRoute,
  parseTopology,
  routeBetween,
} from '../src/index.ts';

// opareport -o route's Name column is the NodeDescription: a switch read from an ibnetdiscover
// dump is "leaf01 SX6036", not its S-<GUID> id, while the NodeGUID column keeps the GUID.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('route text names nodes by their NodeDescription', () => {
  it('prints switches and CAs of an ibnetdiscover dump by description, GUIDs in the GUID column', () => {
    const fabric = parseTopology(fixture('quirks.topo'));
    const from = 'H-0002c90300a1b2c0';
    const to = 'H-0002c90300a1b2e0';
    const report = describeRoute(
      fabric,
      routeBetween(fabric, buildForwardingTables(fabric, 'minhop'), from, to),
    );
    const text = formatOpareportRoute(fabric, report);
    expect(text.split('\n').slice(0, 12)).toEqual([
      'Routes between ports:',
      '    0x0002c90300a1b2c1   1 CA  cn001 HCA-1',
      'and 0x0002c90300a1b2e1   1 CA  cn003 HCA-1',
      'SLID: 0x000a to DLID: 0x0010 SL: 0',
      '3 Links Traversed',
      'Rate  NodeGUID           Port Type Name',
      '56g   0x0002c90300a1b2c1   1 CA  cn001 HCA-1',
      '<->   0x0002c90300ff0001   1 SW  leaf01 SX6036',
      '2.5g  0x0002c90300ff0001  36 SW  leaf01 SX6036',
      '<->   0x0002c90300ff0002  36 SW  leaf02 QM8700',
      '200g  0x0002c90300ff0002   1 SW  leaf02 QM8700',
      '<->   0x0002c90300a1b2e1   1 CA  cn003 HCA-1',
    ]);
    expect(text).not.toMatch(/[SH]-0002c903/);
  });

  it('keeps a name of its own beside the description, and a name alone without one', () => {
    const router = buildScenario('opa-ethernet-router');
    const report = describeRoute(
      router,
      routeBetween(router, buildForwardingTables(router, 'minhop'), 'opa-node', 'eth-node'),
    );
    expect(formatOpareportRoute(router, report)).toMatch(
      / RT {2}router \(IP router: 100 Gb\/s HFI \+ 100 GbE NIC\)\n/,
    );
    const demo = buildScenario('ar-demo');
    const text = formatOpareportRoute(
      demo,
      describeRoute(demo, routeBetween(demo, buildForwardingTables(demo), 'nodeA', 'nodeC')),
    );
    expect(text).toMatch(/\n<-> {3}0x0011750101000000 {3}1 SW {2}edge1\n/);
  });
});
