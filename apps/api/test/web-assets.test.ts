import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildScenario } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates, portKey } from '../src/lib/port-rates.ts';
import { Sampler } from '../src/sampler.ts';
import type { MetricsStore } from '../src/store/types.ts';
import { buildTestApp } from './helper.ts';

const fabric = buildScenario('ar-demo');
const WEB = join(dirname(fileURLToPath(import.meta.url)), '../../web');

/** A build laid out as Vite lays out apps/web/dist: index.html, hashed assets/, public files. */
function fakeBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'fabscope-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head><link rel="icon" href="/favicon.svg"><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(root, 'assets/index-AbC123.js'), `console.log(${JSON.stringify('x'.repeat(4000))});\n`);
  writeFileSync(join(root, 'assets/index-AbC123.js.map'), '{"version":3}');
  writeFileSync(join(root, 'favicon.svg'), readFileSync(join(WEB, 'public/favicon.svg')));
  return root;
}

describe('headers, caching and compression', () => {
  let app: FastifyInstance;
  let root: string;
  beforeAll(async () => {
    root = fakeBuild();
    app = await buildTestApp({ webRoot: root });
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each([
    '/',
    '/api/v1/health',
    '/api/v1/topology',
    '/api/v1/topology', // the kept answer
    '/api/v1/summary',
    '/api/v1/summary',
    '/some/app/route',
  ])('%s has the security headers', async (url) => {
    const res = await app.inject(url);
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|upgrade-insecure-requests/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('caches hashed assets for good and revalidates the page', async () => {
    const asset = await app.inject('/assets/index-AbC123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/index.html', '/pods/3']) {
      const page = await app.inject(url);
      expect(page.headers['content-type'], url).toMatch(/text\/html/);
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves no source map, a real favicon, and 404 for other missing files', async () => {
    expect((await app.inject('/assets/index-AbC123.js.map')).statusCode).toBe(404);
    const icon = await app.inject('/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/image\/svg\+xml/);
    const ico = await app.inject('/favicon.ico');
    expect(ico.statusCode).toBe(404);
    expect(ico.headers['content-type']).toMatch(/json/);
  });

  it('compresses JSON and static files for clients that accept it', async () => {
    const json = await app.inject({ url: '/api/v1/topology', headers: { 'accept-encoding': 'gzip' } });
    expect(json.headers['content-encoding']).toBe('gzip');
    const asset = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.headers['content-encoding']).toBe('br');
    const plain = await app.inject({ url: '/api/v1/topology', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});

describe('the dashboard source satisfies that policy', () => {
  it('has no inline script, links a favicon, and builds no source maps', () => {
    const html = readFileSync(join(WEB, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).toMatch(/<link rel="icon"[^>]*href="\/favicon\.svg"/);
    const vite = readFileSync(join(WEB, 'vite.config.ts'), 'utf8');
    expect(vite).toMatch(/sourcemap: false/);
    expect(vite).toMatch(/polyfill: false/);
  });
});

describe('answers kept for a tick', () => {
  it('serve the same bytes until the next tick, then the new tick; the topology always', async () => {
    let bytesPerSecond = 1e9;
    const store: MetricsStore = {
      kind: 'embedded',
      rates: async () => ({
        timeMs: Date.now(),
        ok: true,
        lastSampleAgeSeconds: 0.1,
        ports: new Map(
          fabric.nodes.flatMap((node) =>
            node.ports
              .filter((p) => p && p.link >= 0)
              .map((p) => [
                portKey(node.guid, p?.number ?? 0),
                {
                  ...emptyPortRates(),
                  transmitBytesPerSecond: bytesPerSecond,
                  receiveBytesPerSecond: bytesPerSecond,
                },
              ]),
          ),
        ),
      }),
      close: async () => undefined,
    };
    const sampler = new Sampler(store, new LinkIndex(fabric));
    const app = await buildTestApp({ fabric, store, sampler });
    try {
      const summary = async (encoding: string) =>
        app.inject({ url: '/api/v1/summary', headers: { 'accept-encoding': encoding } });
      const first = await summary('identity');
      bytesPerSecond = 2e9;
      // Same tick: the kept answer, byte for byte, in each encoding.
      expect((await summary('identity')).body).toBe(first.body);
      const gzip = await summary('gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(first.body);
      // Next tick: a new answer.
      await sampler.sample();
      const next = (await summary('identity')).json();
      expect(next.hostTransmitBytesPerSecond).toBe(2 * first.json().hostTransmitBytesPerSecond);
      const topology = await app.inject('/api/v1/topology');
      expect((await app.inject('/api/v1/topology')).body).toBe(topology.body);
    } finally {
      await app.close();
    }
  });
});
