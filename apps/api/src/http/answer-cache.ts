import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The same answer for every client for the process' life (`static`) or a tick (`tick`): serialized once. */
    cache?: 'static' | 'tick';
  }
}

/** Distinct URLs kept per generation: every view of the dashboard, bounded whatever is asked. */
const MAX_ENTRIES = 64;

type Encoding = 'br' | 'gzip' | 'identity';

interface Entry {
  body: Buffer;
  contentType: string;
  etag?: string;
}

/** A weak validator of the answer's text (weak: the bytes differ per content encoding). */
export function etagOf(text: string): string {
  return `W/"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/** Sends `etag` (revalidated on each use) and says whether the client already holds that text. */
function validated(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag).header('cache-control', 'no-cache');
  const asked = request.headers['if-none-match'];
  return typeof asked === 'string' && (asked === '*' || asked.split(',').some((tag) => tag.trim() === etag));
}

function encodingFor(request: FastifyRequest): Encoding {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return 'identity';
}

function encode(text: string, encoding: Encoding): Buffer {
  const raw = Buffer.from(text, 'utf8');
  if (encoding === 'br') return brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  if (encoding === 'gzip') return gzipSync(raw);
  return raw;
}

/** Any other JSON answer to a GET carries a validator: an unchanged poll gets 304 and no body. */
function revalidated(request: FastifyRequest, reply: FastifyReply, payload: string): string {
  if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
  if (!validated(request, reply, etagOf(payload))) return payload;
  reply.code(304);
  return '';
}

/**
 * Answers of `cache` routes kept as bytes, one serialization and compression per tick whatever the
 * clients; `tick` entries drop when `generation()` changes, `static` ones with `staticGeneration()`.
 */
export function installAnswerCache(
  app: FastifyInstance,
  generation: () => number,
  staticGeneration: () => number = () => 0,
): void {
  const tables = {
    static: { generation: staticGeneration, seen: Number.NaN, entries: new Map<string, Entry>() },
    tick: { generation, seen: Number.NaN, entries: new Map<string, Entry>() },
  };
  const served = new WeakSet<FastifyRequest>();

  /** The entries of `kind`, emptied when its generation moved on. */
  const table = (kind: 'static' | 'tick'): Map<string, Entry> => {
    const kept = tables[kind];
    const now = kept.generation();
    if (now !== kept.seen) {
      kept.seen = now;
      kept.entries = new Map();
    }
    return kept.entries;
  };

  // After every onRequest hook and validation: a kept answer gets the same headers and checks.
  app.addHook('preHandler', async (request, reply) => {
    const kind = request.routeOptions.config.cache;
    if (!kind || (request.method !== 'GET' && request.method !== 'HEAD')) return;
    const encoding = encodingFor(request);
    const entry = table(kind).get(`${encoding} ${request.url}`);
    if (!entry) return;
    served.add(request);
    if (entry.etag && validated(request, reply, entry.etag)) return reply.code(304).send();
    reply.header('content-type', entry.contentType).header('vary', 'accept-encoding');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(entry.body);
  });

  // Before @fastify/compress: the JSON text is still a string.
  app.addHook('onSend', async (request, reply, payload) => {
    const kind = request.routeOptions.config.cache;
    if (reply.statusCode !== 200 || typeof payload !== 'string' || served.has(request)) return payload;
    if (!kind) return revalidated(request, reply, payload);
    const encoding = encodingFor(request);
    const entry: Entry = {
      body: encode(payload, encoding),
      contentType: String(reply.getHeader('content-type')),
      ...(kind === 'static' ? { etag: etagOf(payload) } : {}),
    };
    const entries = table(kind);
    if (entries.size < MAX_ENTRIES) entries.set(`${encoding} ${request.url}`, entry);
    reply.header('vary', 'accept-encoding');
    if (entry.etag && validated(request, reply, entry.etag)) {
      reply.code(304);
      return '';
    }
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return entry.body;
  });
}
