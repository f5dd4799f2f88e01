import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { portExpositionChunks } from '../../src/exposition/port-exposition.ts';
import { ERROR_COUNTER_KEYS, ERROR_COUNTERS } from '../../src/fabric/error-counters.ts';
import type { PortSample } from '../../src/fabric/port-sample.ts';
import { parseOpapmaquery, parsePerfquery } from '../../src/index.ts';
import { portSamplesFromEmulator } from '../../src/sources/emulator/emulator-source.ts';
import { perfqueryErrors } from '../../src/sources/infiniband/perfquery-reader.ts';
import { opaErrors } from '../../src/sources/omnipath/omnipath-source.ts';
import { FIXTURES, samples, value } from '../helpers.ts';

const fixture = (path: string) => readFileSync(`${FIXTURES}${path}`, 'utf8');

function exposed(errors: PortSample['errors']): ReturnType<typeof samples> {
  const port: PortSample = {
    nodeGuid: '0x0011750101000000',
    nodeName: 'edge1',
    nodeType: 'switch',
    portNumber: 2,
    lid: 6,
    rateBytesPerSecond: 12.5e9,
    linkUp: true,
    remote: null,
    transmitBytes: 0,
    receiveBytes: 0,
    transmitPackets: 0,
    receivePackets: 0,
    transmitWaitTicks: 0,
    errors,
  };
  const chunks = [...portExpositionChunks({ fabric: 'f', fabricType: 'x', ports: [port] })];
  return samples(Buffer.concat(chunks).toString('utf8'));
}

describe('error, congestion and bubble counters from the real formats', () => {
  it('opapmaquery: every port-level counter of the six categories, the LQI, and no VL section', () => {
    const [status] = parseOpapmaquery(fixture('opapmaquery/errors-port2.out'));
    if (!status) throw new Error('no port');
    const errors = opaErrors(status);
    expect(errors).toEqual({
      symbolErrors: 12,
      linkErrorRecovery: 3,
      linkDowned: 1,
      receiveErrors: 150,
      transmitDiscards: 9,
      receiveRemotePhysicalErrors: 5,
      receiveSwitchRelayErrors: 8,
      transmitConstraintErrors: 6,
      receiveConstraintErrors: 7,
      localLinkIntegrityErrors: 12,
      excessiveBufferOverrunErrors: 4,
      uncorrectableErrors: 2,
      fmConfigErrors: 1,
      congestionDiscards: 10,
      receiveFecn: 11,
      receiveBecn: 12,
      markFecn: 13,
      transmitTimeCongestion: 14,
      transmitWastedBandwidth: 15,
      transmitWaitData: 16,
      receiveBubble: 17,
      linkQualityIndicator: 3,
    });
    const list = exposed(errors);
    expect(value(list, 'fabscope_port_congestion_discards_total')).toBe(10);
    expect(value(list, 'fabscope_port_receive_bubble_total')).toBe(17);
    expect(value(list, 'fabscope_port_link_quality_indicator')).toBe(3);
    // Omni-Path has no VL15Dropped and opapmaquery no width downgrade: absent, not 0.
    expect(value(list, 'fabscope_port_vl15_dropped_total')).toBeUndefined();
    expect(value(list, 'fabscope_port_link_width_downgrade_lanes')).toBeUndefined();
  });

  it('perfquery -x: the PortCounters errors by their InfiniBand names; Omni-Path-only counters absent', () => {
    const [port] = parsePerfquery(fixture('perfquery/errors-extended.out'));
    if (!port) throw new Error('no port');
    const errors = perfqueryErrors(port);
    expect(errors).toEqual({
      symbolErrors: 1000,
      linkErrorRecovery: 1,
      linkDowned: 0,
      receiveErrors: 20,
      transmitDiscards: 4,
      receiveRemotePhysicalErrors: 2,
      receiveSwitchRelayErrors: 30,
      transmitConstraintErrors: 5,
      receiveConstraintErrors: 6,
      localLinkIntegrityErrors: 7,
      excessiveBufferOverrunErrors: 8,
      vl15Dropped: 9,
    });
    const list = exposed(errors);
    expect(value(list, 'fabscope_port_vl15_dropped_total')).toBe(9);
    expect(value(list, 'fabscope_port_switch_relay_errors_received_total')).toBe(30);
    expect(value(list, 'fabscope_port_fm_config_errors_total')).toBeUndefined();
  });

  it('perfquery basic counters stuck at their width are unknown, not frozen', () => {
    const [port] = parsePerfquery(fixture('perfquery/basic-saturated.out'));
    if (!port) throw new Error('no port');
    const errors = perfqueryErrors(port);
    expect(errors.symbolErrors).toBeUndefined(); // 65535 of 16 bits
    expect(errors.linkDowned).toBeUndefined(); // 255 of 8 bits
    expect(errors.transmitDiscards).toBe(12);
  });

  it('the emulator document: whatever counters its ports carry, by the emulator names', () => {
    const snapshot = portSamplesFromEmulator({
      fabric: 'ar-demo',
      fabricType: 'omnipath',
      timeMs: 0,
      dataUnitBytes: 8,
      ports: [
        {
          nodeGuid: '0x1',
          nodeName: 'edge1',
          nodeType: 'switch',
          portNumber: 4,
          lid: 6,
          rateGbps: 100,
          linkState: 'active',
          remote: null,
          fabricType: 'omnipath',
          counters: {
            XmitData: '0',
            RcvData: '0',
            XmitPkts: '0',
            RcvPkts: '0',
            XmitWait: '0',
            RcvConstraintErrors: '3',
            LinkQualityIndicator: '2',
            LinkWidthDowngrade: '1',
          },
        },
      ],
    });
    expect(snapshot.ports[0]?.errors).toEqual({
      receiveConstraintErrors: 3,
      linkQualityIndicator: 2,
      linkWidthDowngradeLanes: 1,
    });
  });

  it('every counter family ends in _total and every gauge does not (Prometheus naming)', () => {
    for (const key of ERROR_COUNTER_KEYS) {
      const spec = ERROR_COUNTERS[key];
      expect(spec.family.endsWith('_total'), spec.family).toBe(spec.type === 'counter');
      expect(spec.family).toMatch(/^fabscope_port_[a-z0-9_]+$/);
    }
  });
});
