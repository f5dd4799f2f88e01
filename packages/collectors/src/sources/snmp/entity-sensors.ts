/** ENTITY-SENSOR-MIB (RFC 3433) sensors, scaled, and the ports they belong to by ENTITY-MIB (RFC 6933). */
import { milliwattsToDbm, type OpticReading, type OpticSensor } from '@fabscope/contracts/optics';
import { octetText, type SnmpTable } from './snmp-values.ts';

/** What a sensor is matched to: an interface's ifIndex, ifName and ifDescr. */
export interface NamedInterface {
  ifIndex: number;
  name: string;
  descr: string;
}

/** The tables a full walk reads for them: entPhysicalTable, entAliasMappingTable, entPhySensorTable. */
export const ENTITY_TABLES = [
  // entPhysicalDescr, entPhysicalContainedIn, entPhysicalClass, entPhysicalName
  { oid: '1.3.6.1.2.1.47.1.1.1', columns: [2, 4, 5, 7] },
  // entAliasMappingIdentifier (an OID ending in the ifIndex)
  { oid: '1.3.6.1.2.1.47.1.3.2', columns: [2] },
  // entPhySensorType, entPhySensorScale, entPhySensorPrecision, entPhySensorValue, entPhySensorOperStatus
  { oid: '1.3.6.1.2.1.99.1.1', columns: [1, 2, 3, 4, 5] },
] as const;

/** The three tables as walked; an agent without them answers them empty. */
export type EntityTables = [physical: SnmpTable, alias: SnmpTable, sensors: SnmpTable];

/** EntitySensorDataScale yocto(1)..yotta(17) as powers of ten; RFC 3433 lists exa(14) before peta(15). */
const SCALE_EXPONENT = [-24, -21, -18, -15, -12, -9, -6, -3, 0, 3, 6, 9, 12, 18, 15, 21, 24];
/** EntitySensorStatus: ok(1), unavailable(2), nonoperational(3). */
const STATUS_NAMES: Record<number, string> = { 1: 'ok', 2: 'unavailable', 3: 'nonoperational' };
/** EntitySensorDataType voltsDC(4), amperes(5), watts(6), celsius(8); the others are no optic reading. */
const TYPE_VOLTS_DC = 4;
const TYPE_AMPERES = 5;
const TYPE_WATTS = 6;
const TYPE_CELSIUS = 8;
/** entPhysicalClass port(10). */
const CLASS_PORT = 10;
/** Containment deeper than this is a loop or a broken table, not hardware. */
const MAX_DEPTH = 16;

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/**
 * A sensor's value in its data type's unit shifted by `unitExponent` (3: milli), from entPhySensorValue, Scale and
 * Precision: value × 10^scale × 10^−precision, computed in decimal so 6015 at milli, precision 4 is 0.6015 exactly.
 * Null for a scale RFC 3433 does not define.
 */
export function sensorValue(raw: number, scale: number, precision: number, unitExponent = 0): number | null {
  const exponent = SCALE_EXPONENT[scale - 1];
  if (exponent === undefined || !Number.isInteger(raw) || !Number.isInteger(precision)) return null;
  return Number(`${raw}e${exponent - precision + unitExponent}`);
}

/** Which optic reading a sensor is, and the shift to its unit; null when it is none (fans, chassis power). */
function opticKind(type: number, description: string): { sensor: OpticSensor; unitExponent: number } | null {
  if (type === TYPE_CELSIUS) return { sensor: 'temperature', unitExponent: 0 };
  if (type === TYPE_VOLTS_DC) return { sensor: 'supplyVoltage', unitExponent: 0 };
  if (type === TYPE_AMPERES) return { sensor: 'txBias', unitExponent: 3 };
  if (type !== TYPE_WATTS) return null;
  // The MIB has one type for both directions: the device's name for the sensor tells them apart.
  if (/\b(rx|receive)/i.test(description)) return { sensor: 'rxPower', unitExponent: 3 };
  if (/\b(tx|transmit)/i.test(description)) return { sensor: 'txPower', unitExponent: 3 };
  return null;
}

/** A device's interfaces by ifIndex, ifName and ifDescr (the first of a name, as a walk lists them). */
export interface InterfaceLookup {
  byIfIndex: ReadonlyMap<number, NamedInterface>;
  byName: ReadonlyMap<string, NamedInterface>;
  byDescr: ReadonlyMap<string, NamedInterface>;
}

/** The lookup of `interfaces`, made once per decoding rather than a scan per sensor. */
export function interfaceLookup(interfaces: readonly NamedInterface[]): InterfaceLookup {
  const first = (key: (i: NamedInterface) => string) => {
    const map = new Map<string, NamedInterface>();
    for (const i of interfaces) if (!map.has(key(i))) map.set(key(i), i);
    return map;
  };
  return {
    byIfIndex: new Map(interfaces.map((i) => [i.ifIndex, i])),
    byName: first((i) => i.name),
    byDescr: first((i) => i.descr),
  };
}

/** The entity and those containing it, nearest first, as far as the table goes (bounded: a loop ends it). */
function containment(entity: string, physical: SnmpTable): string[] {
  const chain: string[] = [];
  let index = entity;
  while (chain.length < MAX_DEPTH && index !== '0' && !chain.includes(index)) {
    chain.push(index);
    const row = physical[index];
    if (!row) break;
    index = String(integer(row['4']) ?? 0);
  }
  return chain;
}

/**
 * The interface an entity belongs to: up its containment, the first entity with an alias mapping to an ifIndex or of
 * class port(10) named as an interface; failing both (Arista's port entities contain no transceiver), the nearest
 * whose description ends "for <interface name>" ("Xcvr for Ethernet5"). Undefined for a chassis sensor.
 */
export function interfaceOfEntity(
  entity: string,
  tables: Pick<Record<string, SnmpTable>, 'physical' | 'alias'>,
  interfaces: InterfaceLookup,
): NamedInterface | undefined {
  const byName = (name: string) =>
    name === '' ? undefined : (interfaces.byName.get(name) ?? interfaces.byDescr.get(name));
  const chain = containment(entity, tables.physical);
  for (const index of chain) {
    // entAliasMappingTable's index: entPhysicalIndex.entAliasLogicalIndexOrZero; its value a RowPointer to the ifIndex.
    const alias = tables.alias[`${index}.0`]?.['2'];
    const ifIndex = typeof alias === 'string' ? Number(alias.split('.').at(-1)) : Number.NaN;
    const aliased = interfaces.byIfIndex.get(ifIndex);
    if (aliased) return aliased;
    const row = tables.physical[index];
    if (row && integer(row['5']) === CLASS_PORT) {
      const port = byName(octetText(row['7'])) ?? byName(octetText(row['2']));
      if (port) return port;
    }
  }
  for (const index of chain) {
    const named = /\bfor (\S+)$/.exec(octetText(tables.physical[index]?.['2']))?.[1];
    const port = named === undefined ? undefined : byName(named);
    if (port) return port;
  }
  return undefined;
}

/** One sensor's reading: its value when the agent says ok, else unknown with the agent's reason. */
function readingOf(row: Record<string, unknown>, description: string): OpticReading | null {
  const kind = opticKind(integer(row['1']) ?? 0, description);
  if (!kind) return null;
  const status = integer(row['5']);
  if (status !== 1) {
    const why = status === null ? 'no entPhySensorOperStatus' : (STATUS_NAMES[status] ?? `status ${status}`);
    return { sensor: kind.sensor, description, value: null, unknown: `the agent says the sensor is ${why}` };
  }
  const raw = integer(row['4']);
  const value =
    raw === null ? null : sensorValue(raw, integer(row['2']) ?? 0, integer(row['3']) ?? 0, kind.unitExponent);
  const power = kind.sensor === 'txPower' || kind.sensor === 'rxPower';
  if (value === null)
    return {
      sensor: kind.sensor,
      description,
      value: null,
      ...(power ? { dbm: null } : {}),
      unknown: 'the agent gave no value or an undefined scale',
    };
  return { sensor: kind.sensor, description, value, ...(power ? { dbm: milliwattsToDbm(value) } : {}) };
}

/** Each interface's optic readings by ifIndex, in sensor index order; a device without the tables has none. */
export function opticsByInterface(
  [physical, alias, sensors]: EntityTables,
  interfaces: readonly NamedInterface[],
): Map<number, OpticReading[]> {
  const out = new Map<number, OpticReading[]>();
  const lookup = interfaceLookup(interfaces);
  const indexes = Object.keys(sensors).sort((a, b) => Number(a) - Number(b));
  for (const index of indexes) {
    const description = octetText(physical[index]?.['2']);
    const reading = readingOf(sensors[index] as Record<string, unknown>, description);
    if (!reading) continue;
    const port = interfaceOfEntity(index, { physical, alias }, lookup);
    if (!port) continue;
    const list = out.get(port.ifIndex) ?? [];
    list.push(reading);
    out.set(port.ifIndex, list);
  }
  return out;
}
