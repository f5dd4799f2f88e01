import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseSnmprec, serveSnmprec } from '@fabscope/test-support';
import { twoTierFatTree } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { switchRecording } from '../../src/snmp/snmprec.ts';

const run = promisify(execFile);

/** A recorded value as `snmpbulkwalk -Oqnte -Ox` prints it: strings as hex bytes, numbers as numbers. */
function printed(tag: string, value: string): string {
  if (tag === '4') return Buffer.from(value, 'utf8').toString('hex');
  if (tag === '4x') return value.toLowerCase();
  return value;
}

describe('the snmprec agent', () => {
  it("answers snmpbulkwalk with the emulator's recording, every OID in order", async () => {
    const fabric = twoTierFatTree({
      name: 'rec',
      fabricType: 'ethernet',
      radix: 8,
      edgeCount: 2,
      coreCount: 2,
      hostsPerEdge: 4,
      rateGbps: 400,
    });
    const node = fabric.nodes.find((n) => n.type === 'switch');
    if (!node) throw new Error('no switch');
    const atMs = Date.now();
    const recording = switchRecording({
      fabric,
      node,
      atMs,
      bootMs: atMs - 3_600_000,
      traffic: (p) => ({
        outOctets: 2n ** 40n + BigInt(p),
        inOctets: 2n ** 63n + BigInt(p),
        outPackets: 7n,
        inPackets: 8n,
        outOctetsRate: 0,
        inOctetsRate: 0,
        outPacketsRate: 0,
        inPacketsRate: 0,
        inErrors: 3n,
        outDiscards: 2n ** 33n,
        up: p % 2 === 1,
      }),
    });
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-snmprec-'));
    writeFileSync(join(dir, 'leaf.snmprec'), recording);
    const agents = await serveSnmprec({ leaf: join(dir, 'leaf.snmprec') }, () => atMs);
    try {
      const port = agents.ports.get('leaf') as number;
      // Another community is not answered, as a switch drops it.
      await expect(
        run('snmpget', [
          '-v2c',
          '-c',
          'other',
          '-t',
          '0.2',
          '-r',
          '0',
          `127.0.0.1:${port}`,
          '1.3.6.1.2.1.1.3.0',
        ]),
      ).rejects.toThrow();
      // -Cr7: small GetBulks, so the walk crosses many answers' ends.
      const { stdout } = await run('snmpbulkwalk', [
        '-v2c',
        '-c',
        'leaf',
        '-Cr7',
        '-Oqnte',
        '-Ox',
        `127.0.0.1:${port}`,
        '1',
      ]);
      // A long hex string goes on over lines; the walk's end is printed as a value, not a recorded object.
      const walked = stdout
        .replaceAll(/\n(?!\.)/g, ' ')
        .split('\n')
        .filter((l) => l.startsWith('.') && !l.includes('No more variables'))
        .map((l) => {
          const [oid, ...value] = l.slice(1).split(' ');
          return `${oid} ${value.join('').replaceAll('"', '').toLowerCase()}`;
        });
      const recorded = recording
        .trim()
        .split('\n')
        .map((l) => {
          const [oid, tag, value] = l.split('|') as [string, string, string];
          // sysUpTime runs from the boot 3,600 s before: snmpsim's numeric module at the agent's clock.
          if (tag.includes(':numeric')) return `${oid} 360000`;
          return `${oid} ${printed(tag, value)}`;
        });
      expect(walked).toEqual(recorded);
    } finally {
      await agents.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the line it cannot serve', () => {
    expect(() => parseSnmprec('1.3.6.1.2.1.1.5.0|4|ok\n1.3.6.1.2.1.1.6.0|99|what\n')).toThrow(/line 2/);
    expect(() => parseSnmprec('1.3.6.1.2.1.1.5.0|4:writecache|x\n')).toThrow(/line 1: variation module/);
  });
});
