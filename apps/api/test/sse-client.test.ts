import { createServer, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SseClient } from '../src/lib/sse-client.ts';

/** A real HTTP server whose one response is handed to the test, and a raw client socket. */
async function streamPair(): Promise<{ res: ServerResponse; socket: Socket; close: () => Promise<void> }> {
  let resolveRes: (res: ServerResponse) => void = () => undefined;
  const gotRes = new Promise<ServerResponse>((r) => {
    resolveRes = r;
  });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    resolveRes(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const socket = connect(port, '127.0.0.1');
  socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const res = await gotRes;
  return {
    res,
    socket,
    close: () =>
      new Promise<void>((r) => {
        socket.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('SseClient: bounded per-client backlog', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('a client that never reads holds at most one tick, skips the rest, and is dropped with a reason', async () => {
    const pair = await streamPair();
    close = pair.close;
    pair.socket.pause(); // never reads
    const frame = Buffer.alloc(4 << 20, 'a'); // 4 MiB: more than the socket buffers hold
    let dropped = false;
    const client = new SseClient(pair.res, 5, () => {
      dropped = true;
    });
    let peakQueued = 0;
    for (let tick = 0; tick < 50 && !dropped; tick++) {
      client.send(frame);
      peakQueued = Math.max(peakQueued, pair.res.writableLength);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(dropped).toBe(true);
    expect(client.skipped).toBe(5);
    // Node queues what the kernel does not take; never more than the one frame in flight (plus
    // the response head and chunk framing).
    expect(peakQueued).toBeLessThanOrEqual(frame.length + 1024);
    const received: Buffer[] = [];
    const text = await new Promise<string>((resolve) => {
      pair.socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        const sofar = Buffer.concat(received).toString('latin1');
        if (sofar.endsWith('\r\n0\r\n\r\n')) resolve(sofar); // the response's last chunk
      });
      pair.socket.resume();
    });
    expect(text).toMatch(
      /event: dropped\ndata: \{"reason":"the client read less than the stream sends: 5 ticks skipped in a row"\}\n\n/,
    );
  });

  it('a client that keeps up gets every tick', async () => {
    const pair = await streamPair();
    close = pair.close;
    let bytes = 0;
    pair.socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    const client = new SseClient(pair.res, 5);
    const frame = Buffer.from(`data: ${'x'.repeat(100_000)}\n\n`);
    for (let tick = 0; tick < 20; tick++) {
      client.send(frame);
      await new Promise<void>((r) =>
        pair.res.writableNeedDrain ? pair.res.once('drain', r) : setImmediate(r),
      );
    }
    expect(client.skipped).toBe(0);
    // Every frame arrives at the reader: waited for, not for a fixed 50 ms (a loaded machine had
    // delivered 1.2 of the 2 MB by then).
    const deadline = Date.now() + 5000;
    while (bytes < 20 * frame.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(bytes).toBeGreaterThanOrEqual(20 * frame.length);
  });
});
