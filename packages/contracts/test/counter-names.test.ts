import { describe, expect, it } from 'vitest';
import { figuresOf, PORT_FIGURE_NAMES, PORT_TOTAL_FIELDS } from '../src/counter-names.ts';
import { ERROR_COUNTERS, PORT_COUNTER_FAMILIES, PORT_GAUGES } from '../src/metrics.ts';

describe("a port's counters as the fabric's tools name them", () => {
  it('totals every data and error counter the API reads, in its order, and no gauge', () => {
    expect(PORT_TOTAL_FIELDS).toEqual([
      ...Object.keys(PORT_COUNTER_FAMILIES),
      ...Object.keys(ERROR_COUNTERS),
    ]);
    expect(Object.keys(PORT_FIGURE_NAMES)).toEqual([...PORT_TOTAL_FIELDS, ...Object.keys(PORT_GAUGES)]);
  });

  it('names each as perfquery prints it on InfiniBand, and leaves out what a kind has not', () => {
    const ib = new Map(figuresOf('infiniband').map((f) => [f.figure, f.name]));
    expect(ib.get('transmitBytes')).toBe('PortXmitData');
    expect(ib.get('receiveErrors')).toBe('PortRcvErrors');
    expect(ib.get('symbolErrors')).toBe('SymbolErrorCounter');
    expect(ib.get('transmitWait')).toBe('PortXmitWait');
    expect(ib.has('uncorrectableErrors')).toBe(false);
    const eth = figuresOf('ethernet').map((f) => f.figure);
    expect(eth).not.toContain('transmitWait');
    expect(eth).not.toContain('vl15Dropped');
    // One row per name on a kind: the page never shows a counter twice.
    for (const kind of ['omnipath', 'infiniband', 'ethernet'] as const) {
      const names = figuresOf(kind).map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});
