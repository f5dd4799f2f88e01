import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SwitchPort } from './podMatrix.ts';
import { SwitchPortsTable } from './SwitchPortsTable.tsx';
import {
  type PortSnapshot,
  rowsFromSnapshot,
  SWITCH_PORT_SORTS,
  type SwitchPortRow,
  sortSwitchPorts,
} from './switchPortRows.ts';

const row = (port: number, fields: Partial<SwitchPortRow> = {}): SwitchPortRow => ({
  port,
  peer: `core${port}`,
  peerPort: 1,
  out: port * 2,
  outUtil: null,
  inUtil: null,
  outRate: null,
  inRate: null,
  wait: null,
  errors: null,
  linkUp: null,
  ...fields,
});

const maybe = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
const rows = fc
  .uniqueArray(fc.integer({ min: 1, max: 64 }), { maxLength: 20 })
  .chain((ports) =>
    fc.tuple(
      ...ports.map((p) => fc.record({ outUtil: maybe, wait: maybe, errors: maybe }).map((f) => row(p, f))),
    ),
  );

describe('the switch view: its ports sorted by any column', () => {
  it('puts unknown values last in either order, known ones ordered, ties by port', () => {
    fc.assert(
      fc.property(
        rows,
        fc.constantFrom('outUtil', 'wait', 'errors' as const),
        fc.boolean(),
        (rs, key, asc) => {
          const sorted = sortSwitchPorts(rs, key, asc ? 'asc' : 'desc');
          expect(sorted).toHaveLength(rs.length);
          const firstUnknown = sorted.findIndex((r) => r[key] === null);
          if (firstUnknown >= 0) expect(sorted.slice(firstUnknown).every((r) => r[key] === null)).toBe(true);
          for (let i = 1; i < sorted.length; i++) {
            const a = sorted[i - 1] as SwitchPortRow;
            const b = sorted[i] as SwitchPortRow;
            if (a[key] === null || b[key] === null) continue;
            const d = (b[key] as number) - (a[key] as number);
            expect(asc ? d >= 0 : d <= 0).toBe(true);
            if (d === 0) expect(a.port).toBeLessThan(b.port);
          }
        },
      ),
    );
  });

  it('sorts far ends naturally (core1/2 before core1/10)', () => {
    const rs = [row(1, { peer: 'core1', peerPort: 10 }), row(2, { peer: 'core1', peerPort: 2 })];
    expect(sortSwitchPorts(rs, 'peer', 'asc').map((r) => r.peerPort)).toEqual([2, 10]);
    expect(SWITCH_PORT_SORTS).toContain('errors');
  });
});

describe('the switch view: rows from the live stream', () => {
  const ports: SwitchPort[] = [
    { port: 1, peer: 'nodeA', peerPort: 1, out: 0, in: 1 },
    { port: 3, peer: 'core1', peerPort: 1, out: 3, in: 2 },
  ];
  const snapshot = (fields: Partial<PortSnapshot>): PortSnapshot => ({
    utilization: Float64Array.from([0.5, 0.2, 0.99, Number.NaN]),
    bytesPerSecond: Float64Array.from([1e9, 2e8, 3e9, Number.NaN]),
    waitFraction: Float64Array.from([0, 0, 0, 0.5]),
    errors: [[2, 4, null]],
    errorsUnknown: 0,
    linkDown: [],
    ...fields,
  });

  it('reads both directions, the wait leaving the port, the cable’s errors; NaN is unknown, not 0', () => {
    const [a, b] = rowsFromSnapshot(ports, snapshot({}));
    expect(a).toMatchObject({ outUtil: 0.5, inUtil: 0.2, wait: 0, errors: 0 });
    expect(b).toMatchObject({ outUtil: null, inUtil: 0.99, outRate: null, wait: 0.5, errors: 4 });
  });

  it('an unlisted channel is error-free only when every channel’s errors are known', () => {
    const [a] = rowsFromSnapshot(ports, snapshot({ errorsUnknown: 3 }));
    expect(a?.errors).toBeNull();
    expect(rowsFromSnapshot(ports, null)[0]).toMatchObject({ outUtil: null, errors: null });
  });

  it('draws every figure with its colour, unknown as —, and a heading button per column', () => {
    const html = renderToStaticMarkup(
      createElement(SwitchPortsTable, {
        caption: 'Ports of edge1',
        rows: rowsFromSnapshot(ports, snapshot({ errorsUnknown: 3 })),
        withState: true,
      }),
    );
    expect(html).toContain('aria-sort="ascending"');
    expect(html.match(/class="sort-button"/g)).toHaveLength(8);
    expect(html).toContain('50.0 %');
    expect(html).toContain('class="swatch"');
    // The unknown errors of port 1 and port 3's unknown out utilization read "—".
    expect(html).toMatch(/class="num muted"[^>]*>—</);
    expect(html).not.toMatch(/>0 %</);
  });
});
