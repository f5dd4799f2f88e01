import { thrownBy } from '@fabscope/test-support';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError, parsePortsReportLines, parseTopology } from '../../src/index.ts';

// `ibnetdiscover -p` (ibnetdiscover.c `dump_ports_report`) prints every port of every node it found, so each cable
// appears twice; a report cut at a line boundary that lost a cable's second listing is refused, never a smaller fabric.

interface PortEnd {
  type: 'CA' | 'SW';
  lid: number;
  port: number;
  guid: string;
  desc: string;
}

/** One `-p` line as `dump_ports_report` prints it (`%2s %5d %2d 0x%016x %s %s - … ( '%s' - '%s' )`). */
function portLine(local: PortEnd, widthSpeed: string, remote?: PortEnd): string {
  const end = (e: PortEnd) =>
    `${e.type.padStart(2)} ${String(e.lid).padStart(5)} ${String(e.port).padStart(2)} ${e.guid}`;
  if (!remote) return `${end(local)} ${widthSpeed} ${''.padStart(36)}'${local.desc}'`;
  return `${end(local)} ${widthSpeed} - ${end(remote)} ( '${local.desc}' - '${remote.desc}' )`;
}

const WIDTH_SPEEDS = ['4x EDR', '4x HDR', '4x FDR', '1x SDR', '4x QDR'] as const;

/** A subnet as a `-p` report in any node order: switches of 8 ports in a chain, hosts of 2 ports on them. */
const reports = fc
  .record({
    switches: fc.integer({ min: 1, max: 4 }),
    hosts: fc.integer({ min: 1, max: 6 }),
    picks: fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
    extra: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
    order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 80, maxLength: 80 }),
  })
  .map(({ switches, hosts, picks, extra, order }) => {
    let pick = 0;
    const next = (n: number) => (picks[pick++ % picks.length] as number) % n;
    const guid = (kind: number, i: number) =>
      `0x${(0x0002c90300000000n + BigInt(kind * 256 + i)).toString(16).padStart(16, '0')}`;
    const nodes = [
      ...Array.from({ length: switches }, (_, i) => ({
        type: 'SW' as const,
        guid: guid(1, i),
        desc: `MF0;leaf${i}:MQM8790/U1`,
        lid: i + 1,
        ports: 8,
      })),
      ...Array.from({ length: hosts }, (_, i) => ({
        type: 'CA' as const,
        guid: guid(0, i),
        desc: `node${i} mlx5_0`,
        lid: 100 + i,
        ports: 2,
      })),
    ];
    const used = nodes.map(() => new Set<number>());
    const cables: [PortEnd, PortEnd, string][] = [];
    const endOf = (n: number): PortEnd | undefined => {
      const node = nodes[n] as (typeof nodes)[number];
      for (let p = 1; p <= node.ports; p++) {
        if (used[n]?.has(p)) continue;
        used[n]?.add(p);
        return { type: node.type, lid: node.lid, port: p, guid: node.guid, desc: node.desc };
      }
      return undefined;
    };
    const cable = (a: number, b: number) => {
      const ea = endOf(a);
      const eb = endOf(b);
      if (ea && eb) cables.push([ea, eb, WIDTH_SPEEDS[next(WIDTH_SPEEDS.length)] as string]);
    };
    for (let i = 1; i < switches; i++) cable(i, next(i));
    for (let h = 0; h < hosts; h++) {
      cable(switches + h, next(switches));
      if (next(2) === 1) cable(switches + h, next(switches));
    }
    for (const [i, j] of extra) if (i % switches !== j % switches) cable(i % switches, j % switches);
    const lines = cables.flatMap(([a, b, ws]) => [portLine(a, ws, b), portLine(b, ws, a)]);
    // One switch port uncabled, as `4x ???`.
    const spare = endOf(0);
    if (spare) lines.push(portLine(spare, '4x ???'));
    const keyed = lines.map((line, i) => ({ line, key: order[i % order.length] as number }));
    return { lines: keyed.sort((x, y) => x.key - y.key).map((k) => k.line), cables: cables.length };
  });

/** A port line's own end and, when cabled, its far end, as `TYPE GUID PORT`. */
function endsOf(line: string): { own: string; far?: string } {
  const f = line.trim().split(/\s+/);
  const own = `${f[0]} ${f[3]} ${f[2]}`;
  return f[6] === '-' ? { own, far: `${f[7]} ${f[10]} ${f[9]}` } : { own };
}

/** The 1-based line of the first cabled port whose far end has no line of its own, if any. */
function firstUnpaired(lines: readonly string[]): number | undefined {
  const own = new Set(lines.map((l) => endsOf(l).own));
  const i = lines.findIndex((l) => {
    const far = endsOf(l).far;
    return far !== undefined && !own.has(far);
  });
  return i < 0 ? undefined : i + 1;
}

describe('ibnetdiscover -p lists every cable from both ends', () => {
  it('property: the whole report is read; a cut at a line boundary is refused exactly when it loses a listing', () => {
    fc.assert(
      fc.property(reports, fc.nat(), ({ lines, cables }, at) => {
        const whole = `${lines.join('\n')}\n`;
        expect(parseTopology(whole, { format: 'ibnetdiscover-ports' }).links).toHaveLength(cables);
        const cut = at % (lines.length + 1);
        const head = lines.slice(0, cut);
        const error = thrownBy(() => parsePortsReportLines(`${head.join('\n')}\n`), ParseError);
        const unpaired = firstUnpaired(head);
        if (cut === 0) expect(error?.message).toMatch(/no port lines found/);
        else if (unpaired === undefined) expect(error).toBeUndefined();
        else {
          expect(error?.line, `cut after line ${cut}`).toBe(unpaired);
          const far = endsOf(head[unpaired - 1] as string).far?.split(' ') as string[];
          expect(error?.message).toContain(`port ${far[2]} of ${far[0]} ${far[1]}`);
          expect(error?.message).toMatch(/listed from this end only: .* has no line of its own/);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('refuses a cable whose far port is listed uncabled, naming both lines', () => {
    const text = [
      "CA   100  1 0x0002c90300000000 4x EDR - SW     1  3 0x0002c90300000100 ( 'node0 mlx5_0' - 'leaf0' )",
      "SW     1  3 0x0002c90300000100 4x ???                                    'leaf0'",
    ].join('\n');
    expect(() => parseTopology(text, { format: 'ibnetdiscover-ports' })).toThrow(
      /^ibnetdiscover -p: line 1: the cable from port 1 of CA 0x0002c90300000000 \("node0 mlx5_0"\) is listed from this end only: port 3 of SW 0x0002c90300000100 \("leaf0"\) is listed uncabled at line 2/,
    );
  });
});
