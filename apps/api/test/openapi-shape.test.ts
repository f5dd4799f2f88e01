import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './helper.ts';

/** The document without its prose: what a client generated from it depends on. */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'description' && key !== 'summary')
      .map(([key, v]) => [key, withoutDescriptions(v)]),
  );
}

// A change of the API's paths, parameters or schemas shows in review as a change of this file.
describe('the OpenAPI document', () => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp({ listenHost: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('keeps its shape', async () => {
    const doc = (await app.inject('/api/v1/openapi.json')).json();
    await expect(`${JSON.stringify(withoutDescriptions(doc), null, 1)}\n`).toMatchFileSnapshot(
      './__snapshots__/openapi.json',
    );
  });
});
