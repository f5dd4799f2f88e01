import type { OpticReading } from '@fabscope/contracts/optics';
import { normalizeGuid } from '@fabscope/topology';
import type { PortSample } from '../../fabric/port-sample.ts';
import { farEnd } from './lldp-links.ts';
import { congestionFields, decodeCongestion } from './snmp-congestion.ts';
import type { SwitchReading } from './snmp-tables.ts';

/** A switch's GUID-shaped key: its LLDP chassis MAC when it has one, else an FNV-1a hash of its name. */
export function switchGuid(reading: Pick<SwitchReading, 'name' | 'chassisId'>): string {
  const hex = reading.chassisId.replaceAll(':', '');
  if (/^[0-9a-f]{12}$/i.test(hex)) return normalizeGuid(hex);
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(reading.name, 'utf8'))
    h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return normalizeGuid(h.toString(16));
}

function count(value: bigint | number | null): number {
  return value === null ? Number.NaN : Number(value);
}

/**
 * A switch's Ethernet interfaces as port samples, numbered 1.. in ifIndex order; the far end from LLDP when that
 * switch was read too. Errors: ifInErrors as receive errors, ifOutDiscards as transmit discards. `readAtMs`: when
 * the agent was walked, each port's own stamp.
 */
export function switchPorts(
  reading: SwitchReading,
  readings: ReadonlyMap<string, SwitchReading>,
  readAtMs?: number,
): PortSample[] {
  const nodeGuid = switchGuid(reading);
  const congestion = reading.congestion ? decodeCongestion(...reading.congestion) : undefined;
  return reading.interfaces.map((i, k): PortSample => {
    const neighbour = reading.neighbours.find((n) => n.localIfName === i.name);
    const far = neighbour && farEnd(readings, neighbour.sysName, neighbour.portId, neighbour.portDesc);
    const farReading = far && readings.get(far.switchName);
    const { ecn, ...wait } = congestionFields(congestion?.get(i.ifIndex), i.speedMbps);
    return {
      nodeGuid,
      nodeName: reading.name,
      nodeType: 'switch',
      portNumber: k + 1,
      lid: 0,
      rateBytesPerSecond: i.speedMbps === null ? Number.NaN : (i.speedMbps * 1e6) / 8,
      linkUp: i.operUp,
      remote:
        far && farReading && far.portNumber !== null
          ? {
              nodeGuid: switchGuid(farReading),
              nodeName: far.switchName,
              portNumber: far.portNumber,
              nodeType: 'switch',
            }
          : null,
      transmitBytes: count(i.outOctets),
      receiveBytes: count(i.inOctets),
      transmitPackets: count(i.outUcastPkts),
      receivePackets: count(i.inUcastPkts),
      ...wait,
      errors: { receiveErrors: count(i.inErrors), transmitDiscards: count(i.outDiscards), ...ecn },
      ...(readAtMs === undefined ? {} : { countersReadAtMs: readAtMs }),
    };
  });
}

/**
 * The transceiver readings of a switch's port as `switchPorts` numbers it (1.. in ifIndex order), from the
 * source's last readings; undefined when the switch was not read or the port has none.
 */
export function switchPortOptics(
  readings: readonly SwitchReading[],
  nodeGuid: string,
  portNumber: number,
): OpticReading[] | undefined {
  const reading = readings.find((r) => switchGuid(r) === nodeGuid);
  return reading?.interfaces[portNumber - 1]?.optics;
}
