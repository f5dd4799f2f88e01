import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ARROW_STREAM_MEDIA_TYPE, EXPOSITION_MEDIA_TYPE } from '@fabscope/contracts/media-types';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

const CONTENT_TYPE = `${EXPOSITION_MEDIA_TYPE}; charset=utf-8`;

export interface ScrapeRequest {
  /** `GET /metrics?name[]=a&name[]=b`: only these families, where the collector can leave the others out. */
  names?: ReadonlySet<string>;
  /** The scraper's `Accept` takes an Arrow IPC stream: the fabric agent may answer in columns. */
  arrow?: boolean;
}

/** An answer in another form than exposition text: its media type and bytes. */
export interface BinaryAnswer {
  mediaType: string;
  body: Uint8Array;
}

/** Whether an `Accept` header takes `mediaType` (listed with a q above 0). */
export function accepts(header: string | undefined, mediaType: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (type !== mediaType) return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function isBinary(answer: unknown): answer is BinaryAnswer {
  return typeof answer === 'object' && answer !== null && 'mediaType' in answer && 'body' in answer;
}

/** Serves `GET /metrics` from a scrape function; chunks are written as the socket drains, never held whole. */
export async function startMetricsServer(
  scrape: (request: ScrapeRequest) => Promise<string | Iterable<string | Uint8Array> | BinaryAnswer>,
  options: { host?: string; port?: number } = {},
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method !== 'GET' || url.pathname !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try GET /metrics\n');
      return;
    }
    const names = url.searchParams.getAll('name[]');
    const request: ScrapeRequest = names.length > 0 ? { names: new Set(names) } : {};
    if (accepts(req.headers.accept, ARROW_STREAM_MEDIA_TYPE)) request.arrow = true;
    scrape(request).then(
      (body) => {
        if (isBinary(body)) {
          res
            .writeHead(200, {
              'content-type': body.mediaType,
              'content-length': body.body.byteLength,
              vary: 'Accept',
            })
            .end(body.body);
          return;
        }
        res.writeHead(200, { 'content-type': CONTENT_TYPE, vary: 'Accept' });
        if (typeof body === 'string') {
          res.end(body);
          return;
        }
        const chunks = body[Symbol.iterator]();
        let closed = false;
        res.once('close', () => {
          closed = true;
        });
        const pump = (): void => {
          for (;;) {
            if (closed) {
              chunks.return?.();
              return;
            }
            const next = chunks.next();
            if (next.done) {
              res.end();
              return;
            }
            if (!res.write(next.value)) {
              res.once('drain', pump);
              return;
            }
          }
        };
        pump();
      },
      (error: unknown) =>
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`scrape failed: ${String(error)}\n`),
    );
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
