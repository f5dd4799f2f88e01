import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHostCollector } from '../../src/index.ts';
import { samples, value } from '../helpers.ts';

// On this machine, for real: push a known number of bytes through a TCP socket over loopback and
// check the host agent's node_network_transmit_bytes_total{device="lo"} accounts for them. lo
// counts each segment once on transmit; TCP/IP headers and ACKs add well under 1 %. Other
// processes' loopback traffic (this suite runs Prometheus and collectors in parallel) can only add
// bytes, never remove them, so the best of a few attempts is the honest measurement.
const BYTES = 128 * 1024 * 1024;
const ATTEMPTS = 5;

async function pushOverLoopback(bytes: number): Promise<void> {
  let received = 0;
  const server = createServer((socket) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const chunk = Buffer.alloc(1024 * 1024, 0x5a);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      let sent = 0;
      const pump = () => {
        while (sent < bytes) {
          sent += chunk.length;
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
        socket.end();
      };
      pump();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
  while (received < bytes) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('host agent on this machine', () => {
  it('accounts for bytes pushed over loopback within 2 %', async () => {
    const host = createHostCollector({ include: /^lo$/ });
    const read = async () =>
      value(samples(await host.scrape()), 'node_network_transmit_bytes_total', { device: 'lo' }) as number;
    let bestError = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < ATTEMPTS && bestError > 0.02; attempt++) {
      const before = await read();
      await pushOverLoopback(BYTES);
      const delta = (await read()) - before;
      // Never less than what was pushed: the agent may not lose bytes.
      expect(delta).toBeGreaterThanOrEqual(BYTES);
      bestError = Math.min(bestError, (delta - BYTES) / BYTES);
    }
    expect(bestError).toBeLessThanOrEqual(0.02);
  }, 60_000);
});
