import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { emulatorSource } from '../../../src/index.ts';

describe('the emulator source', () => {
  it('asks again on a new connection when the server closed the kept-alive one (a process busy past its keep-alive timeout)', async () => {
    const doc = JSON.stringify({
      fabric: 'f',
      fabricType: 'omnipath',
      timeMs: 0,
      dataUnitBytes: 8,
      ports: [],
    });
    // The server closes each connection as its second request arrives, as Node's server does when
    // its keep-alive timer (5 s) fires while the client's event loop was busy reading 27,648 hosts.
    const served = new WeakMap<Socket, number>();
    const server = createServer((req: IncomingMessage, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n > 1) req.socket.destroy();
      else res.end(doc);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const source = emulatorSource(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      for (let i = 0; i < 3; i++)
        await expect(source.read(AbortSignal.timeout(5000))).resolves.toMatchObject({ fabric: 'f' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
