import { PORT_TOTAL_FIELDS, type PortTotalField } from '@fabscope/contracts/counter-names';
import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { linkState } from '../../../test/testFixtures.ts';
import { PortDetail } from './PortDetail.tsx';
import {
  categoriesOf,
  figureRows,
  formatTotal,
  type PortEntry,
  speedWidthText,
  stateTexts,
} from './portFigures.ts';

const noTotals = Object.fromEntries(PORT_TOTAL_FIELDS.map((f) => [f, null])) as Record<PortTotalField, null>;

function portOf(fabricType: PortEntry['fabricType'], fields: Partial<PortEntry> = {}): PortEntry {
  return {
    port: 4,
    neighbour: { node: 'core2', port: 1 },
    linkId: 'edge1/4--core2/1',
    kind: 'isl',
    rateGbps: 100,
    linkUp: true,
    fabricType,
    physicalState: null,
    physicalStateUnknown: 'not read by this source',
    out: linkState('edge1/4->core2/1', {
      utilization: 0.99,
      packetsPerSecond: 2e6,
      transmitWaitTicksPerSecond: 5e7,
      errors: { transmitDiscards: 0.5, symbolErrors: 2 },
    }),
    in: linkState('core2/1->edge1/4', { utilization: 0.1, errors: { receiveErrors: 3 } }),
    totals: {
      time: '2026-11-29T12:00:00.000Z',
      counters: { ...noTotals, transmitBytes: 5e12, receiveErrors: 7 },
    },
    ...fields,
  };
}

const names = (p: PortEntry) => figureRows(p).map((r) => r.name);

describe("a port's page: the counters as the fabric's tools name them", () => {
  it('InfiniBand rows read as perfquery prints them, with the side each counter is read at', () => {
    const rows = figureRows(portOf('infiniband'));
    expect(rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'PortXmitData',
        'PortRcvErrors',
        'SymbolErrorCounter',
        'LinkDownedCounter',
        'PortXmitWait',
      ]),
    );
    const by = new Map(rows.map((r) => [r.name, r]));
    expect(by.get('PortXmitData')).toMatchObject({ kind: 'bytes', total: 5e12, totalUnknown: null });
    expect(by.get('PortRcvErrors')).toMatchObject({ rate: 3, total: 7 });
    expect(by.get('PortXmitDiscards')).toMatchObject({ rate: 0.5 });
    expect(by.get('PortXmitWait')).toMatchObject({ rate: 5e7 });
    // No Omni-Path counters, nor the SMA congestion or bubble categories InfiniBand has no counters for.
    expect(names(portOf('infiniband'))).not.toContain('Xmit Wasted BW');
    expect(names(portOf('infiniband'))).not.toContain('Uncorrectable Errors');
    expect(categoriesOf('infiniband')).not.toContain('smaCongestion');
  });

  it('Ethernet has no Omni-Path or InfiniBand counters, no XmitWait, no PM categories', () => {
    const eth = names(portOf('ethernet'));
    expect(eth).toContain('ifHCOutOctets');
    expect(eth).toContain('ifInErrors');
    expect(eth.some((n) => /Xmit|Port|VL15|FECN/.test(n))).toBe(false);
    expect(categoriesOf('ethernet')).toEqual([]);
  });

  it('unknown is shown as unknown with its reason, never 0', () => {
    const stale = portOf('omnipath', {
      out: linkState('edge1/4->core2/1', { utilization: null, stale: true }),
      totals: null,
      totalsUnknown: 'this store answers rates only',
    });
    const row = figureRows(stale).find((r) => r.figure === 'transmitBytes');
    expect(row).toMatchObject({ rate: null, total: null, totalUnknown: 'this store answers rates only' });
    expect(row?.rateUnknown).toMatch(/stale/);
    const unreported = figureRows(portOf('omnipath')).find((r) => r.figure === 'linkDowned');
    expect(unreported).toMatchObject({ rate: null, total: null });
    expect(unreported?.rateUnknown).toMatch(/not reported/);
  });

  it('speed, width and states as the tools print them', () => {
    expect(speedWidthText(portOf('infiniband', { widthSpeed: '4xEDR' }))).toBe('4xEDR (100 Gb/s)');
    expect(speedWidthText(portOf('omnipath'))).toBe('4X × 25 Gb/s (100 Gb/s)');
    const downgraded = portOf('omnipath', {
      out: linkState('edge1/4->core2/1', { errors: { linkWidthDowngradeLanes: 1 } }),
    });
    expect(speedWidthText(downgraded)).toBe('3X of 4X × 25 Gb/s (100 Gb/s)');
    expect(speedWidthText(portOf('ethernet'))).toBe('100GbE');
    expect(stateTexts(portOf('infiniband', { physicalState: 'LinkUp' }))).toEqual({
      state: 'Active',
      physical: 'LinkUp',
    });
    // The physical state is the source's reading, never made up from the port state.
    expect(stateTexts(portOf('infiniband'))).toEqual({
      state: 'Active',
      physical: '— (not read by this source)',
    });
    expect(stateTexts(portOf('infiniband', { linkUp: false, physicalState: 'Polling' }))).toEqual({
      state: 'Down',
      physical: 'Polling',
    });
    expect(stateTexts(portOf('infiniband', { linkUp: null })).state).toMatch(/not reported/);
  });

  it('totals are SI-scaled with three significant digits, never rounded into a wrong prefix', () => {
    expect(formatTotal(5e12, 'B')).toBe('5.00 TB');
    expect(formatTotal(999, '')).toBe('999');
    expect(formatTotal(999_999, '')).toBe('1.00 M');
    expect(formatTotal(null, 'B')).toBe('—');
    fc.assert(
      fc.property(fc.double({ min: 1000, max: 1e18, noNaN: true }), (v) => {
        const [digits = '', prefix = ''] = formatTotal(v, '').split(' ');
        const scale = 1000 ** ['k', 'M', 'G', 'T', 'P', 'E'].indexOf(prefix) * 1000;
        expect(Number(digits)).toBeGreaterThanOrEqual(1);
        expect(Number(digits)).toBeLessThan(1000);
        expect(Math.abs(Number(digits) * scale - v) / v).toBeLessThan(0.01);
      }),
    );
  });

  it('renders the neighbour as a link, the tools’ names, and no GUID-world terms on Ethernet', () => {
    const props = { nodeName: 'edge1', onTarget: () => {}, onOpenHistory: () => {}, onSelectLink: () => {} };
    const ib = renderToStaticMarkup(createElement(PortDetail, { ...props, port: portOf('infiniband') }));
    expect(ib).toContain('PortXmitData');
    expect(ib).toContain('5.00 TB');
    expect(ib).toContain('core2/1</button>');
    expect(ib).toContain('Active');
    expect(ib).not.toContain('SMA congestion');
    const eth = renderToStaticMarkup(createElement(PortDetail, { ...props, port: portOf('ethernet') }));
    expect(eth).toContain('ifHCOutOctets');
    expect(eth).not.toContain('XmitWait');
    expect(eth).not.toContain('Integrity');
  });
});

describe("a port's page: counters its source does not report", () => {
  it('are named once under the table rather than drawn as rows of dashes', () => {
    const props = { nodeName: 'edge1', onTarget: () => {}, onOpenHistory: () => {}, onSelectLink: () => {} };
    const html = renderToStaticMarkup(createElement(PortDetail, { ...props, port: portOf('omnipath') }));
    expect(html).toMatch(/Not reported by this port’s source: [^<]*Rcv FECN/);
    expect(html).not.toMatch(/<th scope="row" class="mono">Rcv FECN/);
    expect(html).toMatch(/<th scope="row" class="mono">Xmit Data/);
  });
});
