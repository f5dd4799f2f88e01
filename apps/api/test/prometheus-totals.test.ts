import { describe, expect, it } from 'vitest';
import { portTotalsOf, portTotalsQuery } from '../src/store/prometheus-totals.ts';
import type { RangeSeries } from '../src/store/promql-client.ts';

const GUID = '0x0011750101000001';
const TX = 'fabscope_port_data_transmitted_bytes_total';
const SYMBOL = 'fabscope_port_symbol_error_total';
const PHYSICAL = 'fabscope_port_physical_state';

const series = (name: string, port: string, values: [number, string][], extra = {}): RangeSeries => ({
  metric: { __name__: name, node_guid: GUID, port, ...extra },
  values,
});

describe("a port's totals from Prometheus' raw samples", () => {
  it('asks once for the node’s ports, every counter family and the physical state, within the window', () => {
    const promql = portTotalsQuery([`${GUID}/1`, `${GUID}/3`], 5);
    expect(promql).toMatch(new RegExp(`node_guid="${GUID}",port=~"1\\|3"\\}\\[5s\\]$`));
    expect(promql).toContain(TX);
    expect(promql).toContain(PHYSICAL);
    // The gauges are no totals (as the embedded store's): not asked.
    expect(promql).not.toContain('link_quality_indicator');
    expect(portTotalsQuery(['not a port key'], 5)).toBeNull();
  });

  it('takes each counter’s newest sample and its time, the newest series where two carry one; none: unknown', () => {
    const answer = [
      series(TX, '1', [
        [1000, '5000'],
        [1001, '6000'],
      ]),
      // A second job scraping the same collector, a sweep behind.
      series(TX, '1', [[1000.5, '5500']], { job: 'slow' }),
      series(SYMBOL, '1', [[999, '7']]),
      series(PHYSICAL, '1', [[1001, '5']]),
      series(PHYSICAL, '3', [[1002, '2']]),
    ];
    const [one, three, four] = portTotalsOf([`${GUID}/1`, `${GUID}/3`, `${GUID}/4`], answer);
    expect(one).toEqual({
      timeMs: 1_001_000,
      values: { transmitBytes: 6000, symbolErrors: 7 },
      physicalState: { code: 5, timeMs: 1_001_000 },
    });
    // Its physical state only: no counter is made up.
    expect(three).toEqual({ timeMs: 1_002_000, values: {}, physicalState: { code: 2, timeMs: 1_002_000 } });
    expect(four).toBeNull();
  });
});
