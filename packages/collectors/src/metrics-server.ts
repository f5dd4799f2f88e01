import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Serves `GET /metrics` from a scrape function (text, or text in chunks); every other path is 404. */
export async function startMetricsServer(
  scrape: () => Promise<string | Iterable<string | Uint8Array>>,
  options: { host?: string; port?: number } = {},
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try GET /metrics\n');
      return;
    }
    scrape().then(
      (body) => {
        res.writeHead(200, { 'content-type': CONTENT_TYPE });
        if (typeof body === 'string') {
          res.end(body);
          return;
        }
        for (const chunk of body) res.write(chunk);
        res.end();
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
