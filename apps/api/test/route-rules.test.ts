import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// How routes are written (docs/architecture.md, "The API's layers"), checked on the sources: a
// handler's types come from its schema through the TypeBox type provider, never restated as a
// generic; every error answer goes through http/errors.ts's sendError (or a thrown error the
// app's error handler answers with it), never a body built by hand.
const SRC = join(import.meta.dirname, '../src');

function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => {
      const file = join(e.parentPath, e.name);
      return { file: file.slice(SRC.length + 1), text: readFileSync(file, 'utf8') };
    });
}

/** A route registered with its request types restated: `app.get<{ Querystring: Q }>(`. */
export const RESTATED = /\b\w+\.(?:get|post|put|patch|delete|head|route)<\{/;
/** An error body written out: `{ statusCode: 400, error: 'Bad Request', … }` or `.send({ statusCode`. */
export const HAND_BUILT = /\{\s*statusCode:\s*\d{3},\s*error:|\.send\(\s*\{\s*statusCode\b/;

describe('route rules', () => {
  it('no handler restates its schema as a generic; no error body is built by hand', () => {
    const found = sources(SRC).flatMap(({ file, text }) => [
      ...(RESTATED.test(text) ? [`${file}: a route restates its schema as a generic`] : []),
      ...(HAND_BUILT.test(text) && file !== 'http/errors.ts' ? [`${file}: an error body built by hand`] : []),
    ]);
    expect(found).toEqual([]);
  });

  it('the rules catch what they are for (a check that cannot fail is no check)', () => {
    expect(RESTATED.test("app.get<{ Querystring: RouteQuery }>('/route', …)")).toBe(true);
    expect(RESTATED.test("app.get('/route', { schema }, handler)")).toBe(false);
    expect(HAND_BUILT.test("reply.code(400).send({ statusCode: 400, error: 'Bad Request', message })")).toBe(
      true,
    );
    expect(HAND_BUILT.test('return sendError(reply, 404, message);')).toBe(false);
  });
});
