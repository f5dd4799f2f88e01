import type { OpticReading } from '@fabscope/contracts';

/**
 * A port's transceiver readings as the live source last read them (the SNMP source's ENTITY-SENSOR-MIB walk);
 * undefined when the port has none. Read per request from the source, not the store: optics change slowly and are
 * read only on full walks, so they are not kept as series.
 */
export type PortOptics = (nodeGuid: string, port: number) => readonly OpticReading[] | undefined;

/** GET /port's `optics` field for a port: present only when it has readings. */
export function opticsField(
  optics: PortOptics | null,
  nodeGuid: string,
  port: number,
): { optics?: OpticReading[] } {
  const readings = optics?.(nodeGuid, port);
  return readings && readings.length > 0 ? { optics: [...readings] } : {};
}
