import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ENTITY_TABLES,
  type EntityTables,
  opticsByInterface,
  sensorValue,
} from '../../../src/sources/snmp/entity-sensors.ts';
import { decodeAnswer, type SnmpInterface, type SnmpTable } from '../../../src/sources/snmp/snmp-tables.ts';
import { agentAnswer } from './answers.ts';

const ARISTA = new URL('../../fixtures/snmpsim/arista-dcs-7150s-52-cl.snmprec', import.meta.url);

/** The recording's rows of the three tables, with net-snmp's value types (INTEGER a number, OCTET STRING a Buffer). */
function recordedTables(): EntityTables {
  const tables: EntityTables = [{}, {}, {}];
  for (const line of readFileSync(ARISTA, 'utf8').split('\n')) {
    const [oid = '', type, text = ''] = line.split('|');
    ENTITY_TABLES.forEach((t, k) => {
      const prefix = `${t.oid}.1.`;
      if (!oid.startsWith(prefix)) return;
      const [column = '', ...index] = oid.slice(prefix.length).split('.');
      const value =
        type === '2' ? Number(text) : type === '4x' ? Buffer.from(text, 'hex') : Buffer.from(text);
      const table = tables[k] as SnmpTable;
      const row = table[index.join('.')] ?? {};
      row[column] = value;
      table[index.join('.')] = row;
    });
  }
  return tables;
}

const ports = (...numbers: number[]): SnmpInterface[] =>
  decodeAnswer(
    agentAnswer({
      sysName: 'ZJ-BP-Main-Arista',
      upTimeTicks: 1,
      interfaces: numbers.map((n) => ({ ifIndex: n, name: `Ethernet${n}` })),
    }),
  ).interfaces;

/** Ethernet5's readings as `show interfaces transceiver` prints them (from the recording's raw values). */
const ETHERNET5_OPTICS = [
  { sensor: 'temperature', description: 'DOM Temperature Sensor for Ethernet5', value: 22.9 },
  { sensor: 'supplyVoltage', description: 'DOM Voltage Sensor for Ethernet5', value: 3.3 },
  { sensor: 'txBias', description: 'DOM TX Bias Sensor for Ethernet5', value: 5.09 },
  {
    sensor: 'txPower',
    description: 'DOM TX Power Sensor for Ethernet5',
    value: 0.6015,
    dbm: 10 * Math.log10(0.6015),
  },
  {
    sensor: 'rxPower',
    description: 'DOM RX Power Sensor for Ethernet5',
    value: 0.4025,
    dbm: 10 * Math.log10(0.4025),
  },
];

describe('ENTITY-SENSOR-MIB sensors as port optics', () => {
  it('scales any value by its scale and precision, and back (RFC 3433)', () => {
    const exponents = [-24, -21, -18, -15, -12, -9, -6, -3, 0, 3, 6, 9, 12, 18, 15, 21, 24];
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 17 }),
        fc.integer({ min: -8, max: 9 }),
        fc.constantFrom(0, 3),
        (raw, scale, precision, shift) => {
          const value = sensorValue(raw, scale, precision, shift) as number;
          const k = (exponents[scale - 1] as number) - precision + shift;
          expect(Math.abs(value * 10 ** -k - raw)).toBeLessThanOrEqual(Math.abs(raw) * 1e-12);
        },
      ),
    );
    expect(sensorValue(6015, 8, 4)).toBe(0.0006015);
    expect(sensorValue(6015, 8, 4, 3)).toBe(0.6015);
    expect(sensorValue(229, 9, 1)).toBe(22.9);
    expect(sensorValue(1, 14, 0)).toBe(1e18);
    expect(sensorValue(1, 0, 0)).toBeNull();
    expect(sensorValue(1, 18, 0)).toBeNull();
  });

  it("gives each port its transceiver's five readings from the recording; the chassis' sensors none", () => {
    const optics = opticsByInterface(recordedTables(), ports(5, 47, 50));
    expect([...optics.keys()]).toEqual([5, 47, 50]);
    expect(optics.get(5)).toEqual(ETHERNET5_OPTICS);
    // A dirty fibre: Ethernet50 receives 0.0004 mW, −34 dBm.
    const rx50 = optics.get(50)?.find((o) => o.sensor === 'rxPower');
    expect(rx50?.value).toBe(0.0004);
    expect(rx50?.dbm).toBeCloseTo(-33.98, 2);
  });

  it('says why a sensor the agent calls unavailable or nonoperational is unknown, never a number', () => {
    const [physical, alias, sensors] = recordedTables();
    const status = (index: string, code: number) => ({ ...sensors[index], '5': code });
    const changed: EntityTables = [
      physical,
      alias,
      { ...sensors, '100305201': status('100305201', 2), '100305212': status('100305212', 3) },
    ];
    const optics = opticsByInterface(changed, ports(5)).get(5);
    expect(optics?.[0]).toEqual({
      sensor: 'temperature',
      description: 'DOM Temperature Sensor for Ethernet5',
      value: null,
      unknown: 'the agent says the sensor is unavailable',
    });
    expect(optics?.[3]).toMatchObject({
      value: null,
      unknown: 'the agent says the sensor is nonoperational',
    });
  });

  it('maps a sensor by entAliasMapping first, then by a port entity named as the interface', () => {
    const [physical, , sensors] = recordedTables();
    // Ethernet5's transceiver said by an alias mapping to be ifIndex 47's: the mapping wins over its description.
    const aliased = opticsByInterface(
      [physical, { '100305100.0': { '2': '1.3.6.1.2.1.2.2.1.1.47' } }, sensors],
      ports(5, 47),
    );
    expect(
      aliased
        .get(47)
        ?.slice(0, 2)
        .map((o) => o.description),
    ).toEqual(['DOM Temperature Sensor for Ethernet5', 'DOM Voltage Sensor for Ethernet5']);
    // A port entity (class 10) named Ethernet47 containing a sensor with a vendor's description of its own.
    const reparented: SnmpTable = {
      ...physical,
      '100305201': { '2': Buffer.from('Module temperature'), '4': 100100047, '5': 8, '7': Buffer.alloc(0) },
      '100100047': { ...physical['100100047'], '7': Buffer.from('Ethernet47') },
    };
    expect(opticsByInterface([reparented, {}, sensors], ports(5, 47)).get(47)?.[0]?.description).toBe(
      'Module temperature',
    );
  });

  it('has no optics on a device without the tables, and stops on a containment loop', () => {
    expect(opticsByInterface([{}, {}, {}], ports(5)).size).toBe(0);
    const loop: SnmpTable = {
      '7': { '2': Buffer.from('sensor'), '4': 8, '5': 8 },
      '8': { '2': Buffer.from('module'), '4': 7, '5': 9 },
    };
    const sensor = { '7': { '1': 8, '2': 9, '3': 0, '4': 30, '5': 1 } };
    expect(opticsByInterface([loop, {}, sensor], ports(5)).size).toBe(0);
    const reading = decodeAnswer({
      ...agentAnswer({ sysName: 's', upTimeTicks: 1, interfaces: [{ ifIndex: 5, name: 'Ethernet5' }] }),
      entity: [{}, {}, {}],
    });
    expect(reading.interfaces[0]).not.toHaveProperty('optics');
  });
});
