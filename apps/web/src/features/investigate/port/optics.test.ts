import { describe, expect, it } from 'vitest';
import { opticRows } from './optics.ts';

describe("a port's Optics block", () => {
  it('prints each reading as show interfaces transceiver does: °C, V and mA, power in mW and dBm', () => {
    const rows = opticRows({
      optics: [
        { sensor: 'temperature', description: 'DOM Temperature Sensor for Ethernet50', value: 26 },
        { sensor: 'supplyVoltage', description: 'DOM Voltage Sensor for Ethernet50', value: 3.31 },
        { sensor: 'txBias', description: 'DOM TX Bias Sensor for Ethernet50', value: 5.13 },
        {
          sensor: 'txPower',
          description: 'DOM TX Power Sensor for Ethernet50',
          value: 0.6037,
          dbm: -2.19179,
        },
        {
          sensor: 'rxPower',
          description: 'DOM RX Power Sensor for Ethernet50',
          value: 0.0004,
          dbm: -33.9794,
        },
      ],
    });
    expect(rows.map((r) => [r.name, r.value, r.dbm])).toEqual([
      ['Temperature', '26.00 °C', ''],
      ['Supply voltage', '3.31 V', ''],
      ['TX bias', '5.13 mA', ''],
      ['TX power', '0.6037 mW', '-2.19 dBm'],
      ['RX power', '0.0004 mW', '-33.98 dBm'],
    ]);
  });

  it('shows an unknown reading as unknown with its reason, no light as such, and nothing without optics', () => {
    const [unavailable, dark] = opticRows({
      optics: [
        {
          sensor: 'rxPower',
          description: 'DOM RX Power Sensor for Ethernet5',
          value: null,
          dbm: null,
          unknown: 'the agent says the sensor is unavailable',
        },
        { sensor: 'rxPower', description: 'DOM RX Power Sensor for Ethernet7', value: 0, dbm: null },
      ],
    });
    expect(unavailable).toMatchObject({
      value: null,
      dbm: '',
      unknown: 'the agent says the sensor is unavailable',
    });
    expect(dark).toMatchObject({ value: '0.0000 mW', dbm: 'no light', unknown: null });
    expect(opticRows({})).toEqual([]);
  });
});
