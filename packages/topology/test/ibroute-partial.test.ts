import { readFileSync } from 'node:fs';
import { thrownBy, unprintable } from '@fabscope/test-support';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyIbroute,
  buildScenario,
  fatTreeRouting,
  ParseError,
  switchesWithoutDump,
  tableSource,
} from '../src/index.ts';

// A partial --ibroute dump says per switch where each table came from, or (strict) is an error
// naming the switches it lacks; a table cut short or damaged is an error naming the line.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const fabric = buildScenario('ar-demo');
const computed = fatTreeRouting(fabric);
const index = (name: string) => fabric.nodeByName.get(name)?.index ?? -1;
const sources = (t: ReturnType<typeof applyIbroute>) =>
  Object.fromEntries(['edge1', 'edge2', 'core1', 'core2'].map((n) => [n, tableSource(t, index(n))]));

describe('a partial ibroute dump', () => {
  it('marks each switch dump or computed, and names the engine that computed the rest', () => {
    const tables = applyIbroute(fabric, computed, fixture('ibroute-edge1.txt'));
    expect(sources(tables)).toEqual({
      edge1: 'dump',
      edge2: 'computed',
      core1: 'computed',
      core2: 'computed',
    });
    expect(tables.computedBy).toBe('fattree');
    expect(switchesWithoutDump(fabric, tables).map((n) => n.name)).toEqual(['edge2', 'core1', 'core2']);
    expect(tables.source?.[index('nodeA')]).toBeUndefined();
    // Tables no dump touched say nothing of dumps.
    expect(tableSource(computed, index('edge1'))).toBe('computed');
  });

  it('is an error in strict mode, naming the switches without a dumped table', () => {
    const error = thrownBy(
      () => applyIbroute(fabric, computed, fixture('ibroute-edge1.txt'), { strict: true }),
      ParseError,
    );
    expect(error?.message).toBe(
      'ibroute: line 13: no dumped table for 3 of 4 switches: "edge2", "core1", "core2" (strict: every switch\'s table must come from a dump)',
    );
    const full = applyIbroute(fabric, computed, fixture('opensm-lfts.dump'), { strict: true });
    expect(switchesWithoutDump(fabric, full)).toEqual([]);
  });

  it('adds up over several dumps: strict on the last one counts the tables of those before', () => {
    const edge1 = applyIbroute(fabric, computed, fixture('ibroute-edge1.txt'));
    const others = fixture('opensm-lfts.dump').split('9 lids dumped\n').slice(1).join('9 lids dumped\n');
    const all = applyIbroute(fabric, edge1, others, { strict: true });
    expect(sources(all)).toEqual({ edge1: 'dump', edge2: 'dump', core1: 'dump', core2: 'dump' });
    expect(all.computedBy).toBe('fattree');
    expect(all.bySwitch[index('edge1')]).toBe(edge1.bySwitch[index('edge1')]);
  });
});

describe('an ibroute dump cut short or damaged', () => {
  it.each([
    // ibroute: a line of the table lost, the count says so
    [fixture('ibroute-edge1.txt').replace(/0x0003 003 .*\n/, ''), 11, /says 8 valid lids but lists 7/],
    // OpenSM: the count is the table's last LID
    [
      fixture('opensm-lfts.dump').replace('9 lids dumped', '7 lids dumped'),
      10,
      /\(LIDs 0-9\) says 7 lids dumped but lists 8/,
    ],
    [
      fixture('opensm-lfts.dump').replace('0x0002 002', '0x000a 002'),
      3,
      /LID 0x000a is outside the table's range \[0-9\]/,
    ],
    [fixture('opensm-lfts.dump').replace('0x0003 003', '0x0001 003'), 4, /LID 0x0001 comes after LID 2/],
    [
      fixture('ibroute-edge1.txt').replace('8 valid lids dumped', '8 valid lids dum'),
      12,
      /expected "0xLID PORT/,
    ],
  ])('names the line (%#)', (text, line, reason) => {
    const error = thrownBy(() => applyIbroute(fabric, computed, text), ParseError);
    expect(error?.message).toMatch(reason);
    expect(error?.line).toBe(line);
  });

  it('reads ibroute -a’s unrouted LIDs (port 255) as no route', () => {
    const all = fixture('ibroute-edge1.txt')
      .replace('0x0005 004', '0x0004 255 : (unknown)\n0x0005 004')
      .replace('8 valid lids dumped', '9 lids dumped');
    const tables = applyIbroute(fabric, computed, all);
    expect(tables.bySwitch[index('edge1')]?.[4]).toBe(255);
  });

  it('property: any cut gives a ParseError naming a line, or only whole tables, each marked dump', () => {
    const text = fixture('opensm-lfts.dump');
    const full = applyIbroute(fabric, computed, text);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: text.length }), (cut) => {
        const head = text.slice(0, cut);
        const error = thrownBy(() => applyIbroute(fabric, computed, head), ParseError);
        if (error) {
          expect(error.line, error.message).toBeGreaterThanOrEqual(1);
          expect(unprintable(error.message)).toEqual([]);
          return;
        }
        const tables = applyIbroute(fabric, computed, head);
        for (const node of fabric.nodes) {
          if (node.type !== 'switch') continue;
          const expected = tableSource(tables, node.index) === 'dump' ? full : computed;
          expect(Array.from(tables.bySwitch[node.index] ?? [])).toEqual(
            Array.from(expected.bySwitch[node.index] ?? []),
          );
        }
      }),
      { numRuns: 500 },
    );
  });
});
