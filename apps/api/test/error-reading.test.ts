import { ERROR_FIELDS, type ErrorField, type ErrorRates } from '@fabscope/contracts';
import { buildScenario } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates, type PortRates } from '../src/lib/port-rates.ts';
import { errorReadingOf, errorReadingSliced, idleValue, portErrorsOf } from '../src/store/error-reading.ts';

const index = new LinkIndex(buildScenario('ar-demo'));

/** A port's error rates: any subset of the fields, each idle or not. */
const errorRates: fc.Arbitrary<ErrorRates> = fc
  .array(
    fc.tuple(
      fc.constantFrom(...ERROR_FIELDS),
      fc.oneof(fc.constant('idle' as const), fc.double({ min: 0, max: 1e9, noNaN: true })),
    ),
    { maxLength: ERROR_FIELDS.length },
  )
  .map((fields) => {
    const errors: ErrorRates = {};
    for (const [field, v] of fields) errors[field] = v === 'idle' ? idleValue(field as ErrorField) : v;
    return errors;
  });

/** Every sending port of the index with or without error rates (or without a reading). */
const portMaps = fc
  .array(fc.option(fc.option(errorRates, { nil: undefined }), { nil: null }), {
    minLength: index.portList.length,
    maxLength: index.portList.length,
  })
  .map((perPort) => {
    const ports = new Map<string, PortRates>();
    perPort.forEach((errors, i) => {
      if (errors === null) return;
      const port = emptyPortRates();
      if (errors !== undefined) port.errors = errors;
      ports.set(index.portList[i] as string, port);
    });
    return ports;
  });

/** The ports' error rates as a reading gives them back: only ports that have any. */
function expected(ports: Map<string, PortRates>): Map<string, ErrorRates> {
  return new Map([...ports].flatMap(([key, port]) => (port.errors ? [[key, port.errors] as const] : [])));
}

describe('the history error reading', () => {
  it("gives back every port's reported fields and values, idle or not, in slices or at once", async () => {
    await fc.assert(
      fc.asyncProperty(portMaps, portMaps, async (first, second) => {
        const a = errorReadingOf(index, first);
        expect(portErrorsOf(index, a)).toEqual(expected(first));
        const b = await errorReadingSliced(index, second, a);
        expect(portErrorsOf(index, b)).toEqual(expected(second));
        expect(portErrorsOf(index, errorReadingOf(index, second, a))).toEqual(expected(second));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps only the fields that are not idle, and shares the port sets of the reading before when they are the same', () => {
    fc.assert(
      fc.property(portMaps, (ports) => {
        const before = errorReadingOf(index, ports);
        let busy = 0;
        for (const port of ports.values())
          for (const [field, v] of Object.entries(port.errors ?? {}))
            if (v !== idleValue(field as ErrorField)) busy++;
        expect(before.value.length).toBe(busy);
        const again = errorReadingOf(index, ports, before);
        expect(again.set).toBe(before.set);
        expect(again.sets).toBe(before.sets);
      }),
      { numRuns: 100 },
    );
  });
});
