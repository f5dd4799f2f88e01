import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CATEGORY_NAMES,
  categoriesOf,
  categoryBucket,
  DEFAULT_PM_THRESHOLDS,
  ParseError,
  parsePmThresholds,
  severityOf,
} from '../../src/index.ts';

describe('PM categories: opafm defaults', () => {
  it('are the ones in opa-ff fm_xml.c pmInitConfig', () => {
    expect(DEFAULT_PM_THRESHOLDS.thresholds).toEqual({
      Integrity: 100,
      Congestion: 100,
      SmaCongestion: 100,
      Bubble: 100,
      Security: 10,
      Routing: 100,
    });
    expect(DEFAULT_PM_THRESHOLDS.integrityWeights).toMatchObject({
      RcvErrors: 100,
      ExcessiveBufferOverruns: 100,
      LinkDowned: 25,
      UncorrectableErrors: 100,
      FMConfigErrors: 100,
      LinkQualityIndicator: 40,
      LinkWidthDowngrade: 100,
      LocalLinkIntegrityErrors: 0,
      LinkErrorRecovery: 0,
    });
    expect(DEFAULT_PM_THRESHOLDS.congestionWeights).toEqual({
      XmitWaitPct: 10,
      CongDiscards: 100,
      RcvFECNPct: 5,
      RcvBECNPct: 1,
      XmitTimeCongPct: 25,
      MarkFECNPct: 25,
    });
  });
});

describe('PM categories: each from its counters', () => {
  it('integrity: one receive error per second reaches the threshold; LQI and width count; LLI weighs 0', () => {
    expect(categoriesOf({ receiveErrors: 1 }).integrity).toBe(1);
    expect(categoriesOf({ excessiveBufferOverrunErrors: 0.5 }).integrity).toBe(0.5);
    expect(categoriesOf({ linkDowned: 4 }).integrity).toBe(1);
    expect(categoriesOf({ linkQualityIndicator: 5 }).integrity).toBe(0);
    expect(categoriesOf({ linkQualityIndicator: 2 }).integrity).toBeCloseTo(1.2);
    expect(categoriesOf({ linkWidthDowngradeLanes: 1 }).integrity).toBe(1);
    expect(categoriesOf({ localLinkIntegrityErrors: 1000 }).integrity).toBe(0);
    // InfiniBand: 1000 SymbolErrorCounter/s at fabscope's weight 1 is 10 × the threshold.
    expect(categoriesOf({ symbolErrors: 1000 }).integrity).toBe(10);
  });

  it('congestion: 10 % of the time in XmitWait reaches the threshold; FECN, discards and time-congestion add', () => {
    expect(categoriesOf({ transmitWaitFraction: 0.1 }).congestion).toBeCloseTo(1);
    expect(categoriesOf({ transmitWaitFraction: 0.858 }).congestion).toBeCloseTo(8.58);
    expect(categoriesOf({ congestionDiscards: 1 }).congestion).toBe(1);
    expect(categoriesOf({ receiveFecn: 20, packetsPerSecond: 100 }).congestion).toBe(1);
    expect(categoriesOf({ markFecn: 4, packetsPerSecond: 100 }).congestion).toBe(1);
    expect(categoriesOf({ transmitTimeCongestion: 4, dataFlitsPerSecond: 96 }).congestion).toBe(1);
    // FECN without a packet rate is unknown, not 0 and not infinite.
    expect(categoriesOf({ receiveFecn: 20 }).congestion).toBeNull();
  });

  it('smaCongestion from VL15 drops; bubble from the idle share; security and routing from their errors', () => {
    expect(categoriesOf({ vl15Dropped: 1 }).smaCongestion).toBe(1);
    expect(
      categoriesOf({ transmitWastedBandwidth: 5, transmitWaitData: 5, dataFlitsPerSecond: 90 }).bubble,
    ).toBe(1);
    expect(categoriesOf({ receiveBubble: 50, dataFlitsPerSecond: 50 }).bubble).toBe(5);
    expect(categoriesOf({ transmitConstraintErrors: 4, receiveConstraintErrors: 6 }).security).toBe(1);
    expect(categoriesOf({ receiveSwitchRelayErrors: 250 }).routing).toBe(2.5);
  });

  it('a category none of whose counters is known is null (unknown), never 0', () => {
    const values = categoriesOf({ transmitWaitFraction: 0 });
    expect(values.congestion).toBe(0);
    for (const name of CATEGORY_NAMES.filter((n) => n !== 'congestion')) expect(values[name]).toBeNull();
  });

  it('a threshold of 0 turns its category off', () => {
    const config = {
      ...DEFAULT_PM_THRESHOLDS,
      thresholds: { ...DEFAULT_PM_THRESHOLDS.thresholds, Routing: 0 },
    };
    expect(categoriesOf({ receiveSwitchRelayErrors: 1e6 }, config).routing).toBeNull();
  });

  it('is monotone: more of any error never lowers a category (property)', () => {
    const rate = fc.double({ min: 0, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(rate, rate, rate, rate, (a, b, extra, wait) => {
        const base = categoriesOf({
          receiveErrors: a,
          receiveConstraintErrors: b,
          transmitWaitFraction: wait / 1e6,
        });
        const more = categoriesOf({
          receiveErrors: a + extra,
          receiveConstraintErrors: b + extra,
          transmitWaitFraction: wait / 1e6,
        });
        return (
          (more.integrity as number) >= (base.integrity as number) &&
          (more.security as number) >= (base.security as number)
        );
      }),
    );
  });

  it('severity: warning from the threshold, error from 3 ×, critical from 10 ×; buckets of 25 %', () => {
    expect([0.99, 1, 2.9, 3, 10, null].map(severityOf)).toEqual([
      null,
      'warning',
      'warning',
      'error',
      'critical',
      null,
    ]);
    expect([0, 0.24, 0.25, 0.5, 0.99, 1, 7].map(categoryBucket)).toEqual([0, 0, 1, 2, 3, 4, 4]);
  });
});

describe('PM thresholds from opafm XML', () => {
  it('reads <Thresholds>, <IntegrityWeights> and <CongestionWeights> inside an opafm.xml; the rest stays default', () => {
    const config = parsePmThresholds(`<?xml version="1.0" encoding="utf-8"?>
<Config>
  <Common>
    <Pm>
      <Thresholds>
        <Integrity>50</Integrity>
        <Security>1</Security>
      </Thresholds>
      <IntegrityWeights>
        <LocalLinkIntegrityErrors>10</LocalLinkIntegrityErrors>
      </IntegrityWeights>
      <CongestionWeights>
        <XmitWaitPct>20</XmitWaitPct>
      </CongestionWeights>
    </Pm>
  </Common>
</Config>
`);
    expect(config.thresholds).toEqual({ ...DEFAULT_PM_THRESHOLDS.thresholds, Integrity: 50, Security: 1 });
    expect(config.integrityWeights.LocalLinkIntegrityErrors).toBe(10);
    expect(config.integrityWeights.RcvErrors).toBe(100);
    expect(config.congestionWeights.XmitWaitPct).toBe(20);
    expect(categoriesOf({ localLinkIntegrityErrors: 5 }, config).integrity).toBe(1);
    expect(categoriesOf({ transmitWaitFraction: 0.05 }, config).congestion).toBeCloseTo(1);
  });

  it('a <PmThresholds> fragment works too', () => {
    const config = parsePmThresholds(
      '<PmThresholds><Thresholds><Routing>7</Routing></Thresholds></PmThresholds>',
    );
    expect(config.thresholds.Routing).toBe(7);
  });

  it.each([
    ['<Pm><Thresholds><Integrety>5</Integrety></Thresholds></Pm>', /unknown element <Integrety>/],
    ['<Pm><Thresholds><Integrity>-5</Integrity></Thresholds></Pm>', /whole number/],
    ['<Pm><Thresholds><Integrity>5</Thresholds></Pm>', /malformed XML/],
    ['<Pm><Sm/></Pm>', /expected <Thresholds>/],
  ])('refuses %s with a reason', (xml, reason) => {
    expect(() => parsePmThresholds(xml)).toThrow(ParseError);
    expect(() => parsePmThresholds(xml)).toThrow(reason);
  });
});
