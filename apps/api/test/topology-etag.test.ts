import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helper.ts';

describe('topology validator (ETag)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('answers 304 without a body when the dashboard already has this topology', async () => {
    const first = await app.inject({ url: '/api/v1/topology', headers: { 'accept-encoding': 'gzip' } });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');

    // Fresh (first asked in this encoding) and kept answers both honour the validator.
    for (const encoding of ['identity', 'gzip', 'br']) {
      const again = await app.inject({
        url: '/api/v1/topology',
        headers: { 'if-none-match': String(etag), 'accept-encoding': encoding },
      });
      expect(again.statusCode, encoding).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
  });

  it('sends the topology again when the validator differs, with the same ETag for the same text', async () => {
    const other = await app.inject({ url: '/api/v1/topology', headers: { 'if-none-match': 'W/"old"' } });
    expect(other.statusCode).toBe(200);
    expect(other.json().nodes).toHaveLength(8);
    const plain = await app.inject('/api/v1/topology');
    expect(plain.headers.etag).toBe(other.headers.etag);
  });

  it('gives per-tick answers no validator (they change every second)', async () => {
    const summary = await app.inject('/api/v1/summary');
    expect(summary.statusCode).toBe(200);
    expect(summary.headers.etag).toBeUndefined();
  });
});
