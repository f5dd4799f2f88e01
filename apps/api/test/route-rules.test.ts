import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// How routes are written (docs/architecture.md, "The API's layers"), checked on the sources: a
// handler's types come from its schema through the TypeBox type provider, never restated as a
// generic; every error answer goes through http/errors.ts's sendError (or a thrown error the
// app's error handler answers with it), never a body built by hand. The application's state
// reaches routes as decorators of fastify-plugin layers (src/plugins/), never as a context object
// handed to each route plugin.
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
/**
 * A route plugin or helper given a context object: `async (app, { ctx }) =>`, `(ctx: ApiContext, …)`,
 * `withEmulator(ctx, reply, …)`. Routes read the app's decorators (`app.sampler`) instead.
 */
export const CONTEXT_PARAM = /\bApiContext\b|[(,{]\s*ctx\s*[:,)}=?]/;
/** Decorating outside src/plugins/ (the HTTP layer's own machinery in http/ and app.ts aside). */
export const DECORATES = /\.decorate(?:Request|Reply)?\(/;

/** fastify-plugin's marks on a plugin function: its metadata (name, dependencies), and not encapsulated. */
const PLUGIN_META = Symbol.for('plugin-meta');
const SKIP_OVERRIDE = Symbol.for('skip-override');
interface PluginMeta {
  name?: string;
  dependencies?: string[];
}

describe('route rules', () => {
  it('no handler restates its schema as a generic; no error body is built by hand', () => {
    const found = sources(SRC).flatMap(({ file, text }) => [
      ...(RESTATED.test(text) ? [`${file}: a route restates its schema as a generic`] : []),
      ...(HAND_BUILT.test(text) && file !== 'http/errors.ts' ? [`${file}: an error body built by hand`] : []),
    ]);
    expect(found).toEqual([]);
  });

  it('routes take no context object and decorate nothing: they read the decorators of src/plugins/', () => {
    const found = sources(join(SRC, 'routes')).flatMap(({ file, text }) => [
      ...(CONTEXT_PARAM.test(text)
        ? [`${file}: takes a context object instead of the app's decorators`]
        : []),
      ...(DECORATES.test(text) ? [`${file}: decorates (application state belongs in src/plugins/)`] : []),
    ]);
    expect(found).toEqual([]);
  });

  it('each decorator plugin is a fastify-plugin declaring its name (its file name) and dependencies', async () => {
    const files = readdirSync(join(SRC, 'plugins', 'app')).filter(
      (f) => f.endsWith('.ts') && f !== 'index.ts',
    );
    expect(files.length).toBeGreaterThanOrEqual(6);
    const names = new Set(files.map((f) => basename(f, '.ts')));
    const found: string[] = [];
    for (const file of files) {
      const module = (await import(pathToFileURL(join(SRC, 'plugins', 'app', file)).href)) as Record<
        string,
        unknown
      >;
      const plugins = Object.values(module).filter(
        (value): value is Record<symbol, unknown> => typeof value === 'function' && PLUGIN_META in value,
      );
      if (plugins.length !== 1) {
        found.push(`plugins/app/${file}: exports ${plugins.length} fastify-plugins, not one`);
        continue;
      }
      const plugin = plugins[0] as Record<symbol, unknown>;
      const meta = plugin[PLUGIN_META] as PluginMeta;
      if (meta.name !== basename(file, '.ts'))
        found.push(`plugins/app/${file}: declares the name ${JSON.stringify(meta.name)}, not its file's`);
      if (!Array.isArray(meta.dependencies)) found.push(`plugins/app/${file}: declares no dependencies`);
      for (const dependency of meta.dependencies ?? [])
        if (!names.has(dependency))
          found.push(`plugins/app/${file}: depends on "${dependency}", no plugin here`);
      // Not encapsulated: its decorators are the root instance's, seen by every route.
      if (plugin[SKIP_OVERRIDE] !== true) found.push(`plugins/app/${file}: encapsulated`);
    }
    expect(found).toEqual([]);
  });

  it('the rules catch what they are for (a check that cannot fail is no check)', () => {
    expect(
      CONTEXT_PARAM.test('export const fabricRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = …'),
    ).toBe(true);
    expect(CONTEXT_PARAM.test('export const fabricRoutes = async (app, { ctx }) => {')).toBe(true);
    expect(CONTEXT_PARAM.test('function liveRoute(ctx: Context, from: string) {')).toBe(true);
    expect(CONTEXT_PARAM.test('withEmulator(ctx, reply, (e) => e.listFaults())')).toBe(true);
    expect(CONTEXT_PARAM.test('withEmulator(app.emulator, reply, (e) => e.listFaults())')).toBe(false);
    expect(CONTEXT_PARAM.test('const { health } = await app.sampler.current();')).toBe(false);
    expect(DECORATES.test("app.decorate('fabric', live);")).toBe(true);
    expect(DECORATES.test("app.get('/fabric', handler);")).toBe(false);
    expect(RESTATED.test("app.get<{ Querystring: RouteQuery }>('/route', …)")).toBe(true);
    expect(RESTATED.test("app.get('/route', { schema }, handler)")).toBe(false);
    expect(HAND_BUILT.test("reply.code(400).send({ statusCode: 400, error: 'Bad Request', message })")).toBe(
      true,
    );
    expect(HAND_BUILT.test('return sendError(reply, 404, message);')).toBe(false);
  });
});
