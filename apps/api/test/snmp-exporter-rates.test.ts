import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FabricSnapshot, parseSnmpTargets, snmpSource, switchGuid } from '@fabscope/collectors';
import {
  type RunningSnmpExporter,
  type Snmpsim,
  startSnmpExporter,
  startSnmpsim,
} from '@fabscope/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portKey } from '../src/lib/port-rates.ts';
import { EmbeddedStore } from '../src/store/embedded.ts';
import { snmpExporterMapping } from '../src/store/snmp-exporter-mapping.ts';

const ARISTA = fileURLToPath(
  new URL(
    '../../../packages/collectors/test/fixtures/snmpsim/arista-dcs-7150s-52-cl.snmprec',
    import.meta.url,
  ),
);
const STEP_MS = 10_000;

/**
 * The recorded Arista with each counter snmpsim's numeric module advances (`rate=R,initial=I`) standing still
 * where it is `seconds` on: both readers then read the same counter instants, and their read times are the
 * test's clock.
 */
function aristaAt(seconds: number): string {
  return readFileSync(ARISTA, 'utf8').replace(
    /^([\d.]+)\|(\d+):numeric\|rate=(\d+),initial=(\d+)$/gm,
    (_m, oid: string, tag: string, rate: string, initial: string) =>
      `${oid}|${tag}|${BigInt(initial) + BigInt(rate) * BigInt(seconds)}`,
  );
}

let sim: Snmpsim;
let exporter: RunningSnmpExporter;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fabscope-snmp-exporter-'));
  const recording = join(dir, 'arista.snmprec');
  writeFileSync(recording, aristaAt(0));
  // The recording as community `public`: the one snmp.yml's if_mib module speaks.
  [sim, exporter] = await Promise.all([startSnmpsim({ public: recording }, 'public'), startSnmpExporter()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([sim?.stop(), exporter?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Per port (`portKey`), its transmit and receive rates between two of the SNMP source's sweeps. */
function sourceRates(a: FabricSnapshot, b: FabricSnapshot): Map<string, [number, number]> {
  const rates = new Map<string, [number, number]>();
  b.ports.forEach((p, k) => {
    const q = a.ports[k];
    if (!q || q.portNumber !== p.portNumber) throw new Error('the sweeps saw different ports');
    const seconds = ((p.countersReadAtMs ?? Number.NaN) - (q.countersReadAtMs ?? Number.NaN)) / 1000;
    rates.set(portKey(p.nodeGuid, p.portNumber), [
      (p.transmitBytes - q.transmitBytes) / seconds,
      (p.receiveBytes - q.receiveBytes) / seconds,
    ]);
  });
  return rates;
}

describe('snmp_exporter through FABSCOPE_METRICS_SOURCE=snmp_exporter', () => {
  it("gives every port of the recorded Arista the SNMP source's rates, within 1 %", async () => {
    let now = 1_800_000_000_000;
    const source = snmpSource({
      targets: parseSnmpTargets(`127.0.0.1:${sim.port} v2c public`),
      now: () => now,
    });
    const store = new EmbeddedStore({
      targets: [`${exporter.base}/snmp?target=127.0.0.1:${sim.port}&module=if_mib`],
      // The switch's GUID as the SNMP source keys it: the topology an LLDP-discovered fabric has.
      mapping: snmpExporterMapping({
        guidOfNode: (name) => {
          const reading = source.readings().find((r) => r.name === name);
          return reading && switchGuid(reading);
        },
        hasGuid: () => false,
      }),
      now: () => now,
      // One rate over the two scrapes the step apart.
      rateWindowMs: STEP_MS,
      staleAfterMs: 2 * STEP_MS,
      timeoutMs: 20_000,
    });
    try {
      const sweep = () => Promise.all([source.read(AbortSignal.timeout(20_000)), store.scrapeOnce()]);
      const [first] = await sweep();
      writeFileSync(join(sim.dataDir, 'public.snmprec'), aristaAt(STEP_MS / 1000));
      await sim.restart();
      now += STEP_MS;
      const [second] = await sweep();
      const ours = sourceRates(first, second);
      const theirs = (await store.rates()).ports;
      const moving = [...ours].filter(([, [tx, rx]]) => tx > 0 || rx > 0);
      expect(moving.length).toBeGreaterThanOrEqual(20);
      // Ethernet47 (ifIndex 47, the 47th Ethernet port), as the recording advances it: 12,000,000 bytes/s out.
      const guid = switchGuid(source.readings()[0] as Parameters<typeof switchGuid>[0]);
      expect(ours.get(portKey(guid, 47))?.[0]).toBe(12_000_000);
      expect(theirs.get(portKey(guid, 47))).toMatchObject({
        transmitBytesPerSecond: 12_000_000,
        linkUp: true,
      });
      expect(theirs.size).toBe(ours.size);
      for (const [key, [tx, rx]] of ours) {
        const other = theirs.get(key);
        expect(other, key).toBeDefined();
        expect(Math.abs((other?.transmitBytesPerSecond ?? Number.NaN) - tx), key).toBeLessThanOrEqual(
          tx * 0.01,
        );
        expect(Math.abs((other?.receiveBytesPerSecond ?? Number.NaN) - rx), key).toBeLessThanOrEqual(
          rx * 0.01,
        );
      }
    } finally {
      await store.close();
    }
  }, 60_000);
});
