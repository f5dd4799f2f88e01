// perfquery reads a node's ports in one run: they are stamped with the middle of that run, not the sweep's.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { infinibandSource } from '../../../src/index.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));

describe('the perfquery reader', () => {
  it("stamps a node's ports with the middle of the perfquery run that read them, through the port it was given", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-pq-stamps-'));
    try {
      const ibnetdiscover = join(dir, 'ibnetdiscover');
      writeFileSync(ibnetdiscover, `#!/bin/sh\ncat '${fixture('ibnetdiscover/fabric-p.out')}'\n`, {
        mode: 0o755,
      });
      // leaf-a01 (LID 11) answers perfquery -x as recorded, a run of 200 ms, and its basic run with another
      // node's recorded port (so none of its own); every other node is unreachable.
      const perfquery = join(dir, 'perfquery');
      const leaf = fixture('perfquery/0x98039b0300a1b2c0.out');
      const other = fixture('perfquery/basic-saturated.out');
      writeFileSync(
        perfquery,
        `#!/bin/sh\ncase "$*" in\n  "-C mlx5_1 -P 2 -x -l 11 "*) sleep 0.2; cat '${leaf}';;\n  "-C mlx5_1 -P 2 -l 11 "*) cat '${other}';;\n  *) exit 1;;\nesac\n`,
        { mode: 0o755 },
      );
      const source = infinibandSource({
        reader: 'perfquery',
        ibnetdiscover,
        perfquery,
        localPort: { ca: 'mlx5_1', port: 2 },
      });
      const started = Date.now();
      const snapshot = await source.read(AbortSignal.timeout(20_000));
      const ended = Date.now();
      const leafPorts = snapshot.ports.filter((p) => p.lid === 11 && [3, 4].includes(p.portNumber));
      expect(leafPorts.map((p) => p.transmitBytes)).toEqual([4 * 40213370123457, expect.any(Number)]);
      const [three, four] = leafPorts.map((p) => p.countersReadAtMs as number);
      // One run read both: one stamp, inside the read and at least half the run after its start.
      expect(three).toBe(four);
      expect(three).toBeGreaterThanOrEqual(started + 100);
      expect(three).toBeLessThanOrEqual(ended);
      // Ports nothing was read of carry no instant of their own.
      expect(snapshot.ports.filter((p) => p.lid !== 11).every((p) => p.countersReadAtMs === undefined)).toBe(
        true,
      );
      await source.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
