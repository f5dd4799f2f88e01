/**
 * A transceiver's digital optical monitoring (DOM) readings, as `show interfaces transceiver` prints them: module
 * temperature (°C), supply voltage (V), laser bias (mA), transmitted and received power (mW, and dBm).
 */
export const OPTIC_SENSORS = ['temperature', 'supplyVoltage', 'txBias', 'txPower', 'rxPower'] as const;
export type OpticSensor = (typeof OPTIC_SENSORS)[number];

/** The unit each optic sensor's `value` is in. */
export const OPTIC_UNITS = {
  temperature: '°C',
  supplyVoltage: 'V',
  txBias: 'mA',
  txPower: 'mW',
  rxPower: 'mW',
} as const satisfies Record<OpticSensor, string>;

/** One sensor's reading (schemas/optics.ts is its wire schema). */
export interface OpticReading {
  sensor: OpticSensor;
  /** The sensor as the device names it (entPhysicalDescr). */
  description: string;
  /** In OPTIC_UNITS[sensor]; null when unknown: `unknown` says why. */
  value: number | null;
  /** Power sensors only: 10·log10(mW); null when unknown or no light (0 mW). */
  dbm?: number | null;
  unknown?: string;
}

/** Power in dBm from milliwatts, as `show interfaces transceiver` prints it; null for no light (0 mW: −∞ dBm). */
export function milliwattsToDbm(milliwatts: number): number | null {
  return milliwatts > 0 ? 10 * Math.log10(milliwatts) : null;
}
