import { Type } from '@sinclair/typebox';
import { OPTIC_SENSORS } from '../optics.ts';
import { Literals, Nullable } from './common.ts';

/** One transceiver reading of a port, as GET /port answers it (optics.ts: the sensors and their units). */
export const OpticReadingSchema = Type.Object({
  sensor: Literals(OPTIC_SENSORS),
  description: Type.String({ description: 'The sensor as the device names it (entPhysicalDescr)' }),
  value: Nullable(
    Type.Number({ description: 'In °C, V, mA or mW by `sensor`; null when unknown: `unknown` says why' }),
  ),
  dbm: Type.Optional(
    Nullable(
      Type.Number({ description: 'Power sensors: 10·log10(mW); null when unknown or no light (0 mW)' }),
    ),
  ),
  unknown: Type.Optional(Type.String({ description: 'Why `value` is null' })),
});
