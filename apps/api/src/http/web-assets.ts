import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Vite names built assets by content hash: they never change, so browsers may keep them. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Serves the built dashboard: hashed `/assets/*` cached for good, the rest revalidated, no source maps; whether one was found. */
export async function registerWebAssets(app: FastifyInstance, webRoot: string | undefined): Promise<boolean> {
  if (webRoot === undefined || !existsSync(`${webRoot}/index.html`)) return false;
  await app.register(fastifyStatic, {
    root: webRoot,
    prefix: '/',
    wildcard: false,
    cacheControl: false,
    allowedPath: (pathName) => !pathName.endsWith('.map'),
    setHeaders: (res, filePath) => {
      res.setHeader('cache-control', /[/\\]assets[/\\]/.test(filePath) ? IMMUTABLE : 'no-cache');
    },
  });
  return true;
}

/** A path the dashboard's client-side routes may use: not the API, not a file name. */
export function isAppPath(path: string): boolean {
  if (path.startsWith('/api/') || path === '/api' || path.startsWith('/assets/')) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.');
}
