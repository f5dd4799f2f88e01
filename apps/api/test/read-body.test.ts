import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyInSlices } from '../src/lib/read-body.ts';

/** What the server sends: the body in these chunks, with or without a Content-Length, or cut. */
interface Answer {
  chunks: Uint8Array[];
  contentLength: 'exact' | 'none';
  /** Close the connection after this many bytes (an answer cut short). */
  cutAfter?: number;
}

let server: Server;
let url = '';
const answers = new Map<string, Answer>();
let next = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const answer = answers.get(req.url ?? '') as Answer;
    const total = answer.chunks.reduce((n, c) => n + c.byteLength, 0);
    if (answer.contentLength === 'exact') res.setHeader('content-length', total);
    let sent = 0;
    for (const chunk of answer.chunks) {
      if (answer.cutAfter !== undefined && sent + chunk.byteLength > answer.cutAfter) {
        res.write(chunk.subarray(0, answer.cutAfter - sent));
        res.flushHeaders();
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.write(chunk);
      sent += chunk.byteLength;
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function ask(answer: Answer): Promise<Response> {
  const path = `/${next++}`;
  answers.set(path, answer);
  return fetch(`${url}${path}`);
}

const chunks = fc.array(fc.uint8Array({ maxLength: 70_000 }), { maxLength: 12 });

describe('readBodyInSlices', () => {
  it('reads the body byte for byte, with or without a Content-Length, in any chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        chunks,
        fc.constantFrom('exact' as const, 'none' as const),
        async (parts, contentLength) => {
          const bytes = await readBodyInSlices(await ask({ chunks: parts, contentLength }));
          expect(Buffer.from(bytes)).toEqual(Buffer.concat(parts));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('refuses an answer cut short, naming how much came', async () => {
    const body = new Uint8Array(300_000).fill(7);
    const response = await ask({ chunks: [body], contentLength: 'exact', cutAfter: 100_000 });
    await expect(readBodyInSlices(response)).rejects.toThrow(/cut short|terminated/);
  });

  it('gives the event loop turns while it reads a big body', async () => {
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const parts = Array.from({ length: 200 }, () => new Uint8Array(256 * 1024).fill(1));
    const bytes = await readBodyInSlices(await ask({ chunks: parts, contentLength: 'exact' }), 0);
    clearInterval(counting);
    expect(bytes.byteLength).toBe(200 * 256 * 1024);
    expect(turns).toBeGreaterThan(5);
  });
});
