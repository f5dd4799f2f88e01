import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validationMessage } from '../src/http/validation-message.ts';
import { buildTestApp } from './helper.ts';

describe('validation messages name the parameter and say what it may be, once', () => {
  it('a bad constant lists the allowed values once; an unknown parameter is named', async () => {
    const app = await buildTestApp();
    try {
      const sort = (await app.inject('/api/v1/links?sort=bogus')).json();
      expect(sort.statusCode).toBe(400);
      expect(sort.message).toBe(
        'querystring/sort must be one of: utilization, bytesPerSecond, transmitWaitFraction, id, integrity, congestion, smaCongestion, bubble, security, routing',
      );
      expect((await app.inject('/api/v1/links?order=up')).json().message).toBe(
        'querystring/order must be one of: asc, desc',
      );
      expect((await app.inject('/api/v1/links?bogus=1')).json().message).toBe(
        'querystring has an unknown parameter "bogus"',
      );
    } finally {
      await app.close();
    }
  });

  it('for any list of const errors at one place: each value listed once, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 12 }),
        (values) => {
          const message = validationMessage(
            [
              ...values.map((v) => ({ keyword: 'const', instancePath: '/x', params: { allowedValue: v } })),
              { keyword: 'anyOf', instancePath: '/x', message: 'must match a schema in anyOf', params: {} },
            ],
            'querystring',
          );
          expect(message).toBe(`querystring/x must be one of: ${[...new Set(values)].join(', ')}`);
        },
      ),
    );
  });
});
