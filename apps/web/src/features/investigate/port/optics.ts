import { OPTIC_UNITS, type OpticSensor } from '@fabscope/contracts/optics';
import type { PortEntry } from './portFigures.ts';

/** One row of a port's Optics block, as `show interfaces transceiver` prints its columns. */
export interface OpticRow {
  key: string;
  name: string;
  /** The sensor as the device names it. */
  description: string;
  /** The reading in its unit; null when unknown: `unknown` says why. */
  value: string | null;
  /** Power only: in dBm ("no light" at 0 mW); empty for the other sensors. */
  dbm: string;
  unknown: string | null;
}

const NAMES: Record<OpticSensor, string> = {
  temperature: 'Temperature',
  supplyVoltage: 'Supply voltage',
  txBias: 'TX bias',
  txPower: 'TX power',
  rxPower: 'RX power',
};
/** Decimals as EOS prints them (°C, V and mA to 2); mW to 4, so a dim receiver's 0.0004 shows. */
const DECIMALS: Record<OpticSensor, number> = {
  temperature: 2,
  supplyVoltage: 2,
  txBias: 2,
  txPower: 4,
  rxPower: 4,
};

/** The rows of a port's Optics block; none when the port's source read no transceiver. */
export function opticRows(port: Pick<PortEntry, 'optics'>): OpticRow[] {
  return (port.optics ?? []).map((o, k) => {
    const power = o.sensor === 'txPower' || o.sensor === 'rxPower';
    const dbm =
      !power || o.value === null
        ? ''
        : o.dbm === null || o.dbm === undefined
          ? 'no light'
          : `${o.dbm.toFixed(2)} dBm`;
    return {
      key: `${k} ${o.description}`,
      name: NAMES[o.sensor],
      description: o.description,
      value: o.value === null ? null : `${o.value.toFixed(DECIMALS[o.sensor])} ${OPTIC_UNITS[o.sensor]}`,
      dbm,
      unknown: o.value === null ? (o.unknown ?? 'not reported') : null,
    };
  });
}
