import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeUdpPort, type Snmpsim, snmpbulkwalk, startSnmpsim } from '@fabscope/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchGuid, switchPortOptics } from '../../../src/sources/snmp/snmp-ports.ts';
import { snmpSource } from '../../../src/sources/snmp/snmp-source.ts';
import { parseSnmpTargets } from '../../../src/sources/snmp/snmp-targets.ts';

const ARISTA = new URL('../../fixtures/snmpsim/arista-dcs-7150s-52-cl.snmprec', import.meta.url).pathname;
const IF_TYPE = '1.3.6.1.2.1.2.2.1.3';
const IF_OPER_STATUS = '1.3.6.1.2.1.2.2.1.8';
const IF_NAME = '1.3.6.1.2.1.31.1.1.1.1';
const IF_HIGH_SPEED = '1.3.6.1.2.1.31.1.1.1.15';
const IF_HC_OUT_OCTETS = '1.3.6.1.2.1.31.1.1.1.10';
const LLDP_LOC_PORT_ID = '1.0.8802.1.1.2.1.3.7.1.3';
const LLDP_REM = '1.0.8802.1.1.2.1.4.1.1';
const SYS_UP_TIME = '1.3.6.1.2.1.1.3.0';
const SENSOR = '1.3.6.1.2.1.99.1.1.1';

let sim: Snmpsim;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fabscope-snmp-'));
  // An agent with the system group only: no IF-MIB, so every table it is asked for is empty.
  const bare = join(dir, 'bare.snmprec');
  writeFileSync(bare, `${SYS_UP_TIME}|67|100\n1.3.6.1.2.1.1.5.0|4|bare-switch\n`);
  sim = await startSnmpsim({ arista: ARISTA, bare }, 'arista', [
    '--v3-user=monitor',
    '--v3-auth-proto=SHA',
    '--v3-auth-key=authpass1',
    '--v3-priv-proto=AES',
    '--v3-priv-key=privpass1',
  ]);
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The walk's column `column` by row index (the OID's tail after `column.`). */
function byIndex(walk: Map<string, string>, column: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const [oid, value] of walk)
    if (oid.startsWith(`${column}.`)) rows.set(oid.slice(column.length + 1), value);
  return rows;
}

/** ifHighSpeed 0 (a port down, or one that cannot say) is an unknown speed. */
function speedOf(text: string | undefined): number | null {
  return text === undefined || text === '0' ? null : Number(text);
}

describe('the SNMP source against snmpsim serving a recorded Arista DCS-7150S', () => {
  it("reads every Ethernet interface, speed, state and LLDP neighbour as snmpbulkwalk's", async () => {
    const source = snmpSource({ targets: parseSnmpTargets(`127.0.0.1:${sim.port} v2c arista`) });
    const snapshot = await source.read(AbortSignal.timeout(20_000));
    expect(snapshot.targets?.map((t) => t.outcome)).toEqual(['ok']);
    const [reading] = source.readings();
    const types = byIndex(await snmpbulkwalk(sim.port, 'arista', IF_TYPE), IF_TYPE);
    const names = byIndex(await snmpbulkwalk(sim.port, 'arista', IF_NAME), IF_NAME);
    const speeds = byIndex(await snmpbulkwalk(sim.port, 'arista', IF_HIGH_SPEED), IF_HIGH_SPEED);
    const states = byIndex(await snmpbulkwalk(sim.port, 'arista', IF_OPER_STATUS), IF_OPER_STATUS);
    const ethernet = [...types].filter(([, t]) => t === '6').map(([i]) => i);
    expect(ethernet.length).toBe(53);
    expect(reading?.interfaces.map((i) => [String(i.ifIndex), i.name, i.speedMbps, i.operUp])).toEqual(
      ethernet.map((i) => [i, names.get(i), speedOf(speeds.get(i)), states.get(i) === '1']),
    );
    expect(snapshot.ports.map((p) => [p.portNumber, p.rateBytesPerSecond, p.linkUp])).toEqual(
      ethernet.map((i, k) => [
        k + 1,
        ((speedOf(speeds.get(i)) ?? Number.NaN) * 1e6) / 8,
        states.get(i) === '1',
      ]),
    );
    expect(new Set(snapshot.ports.map((p) => p.nodeName))).toEqual(new Set(['ZJ-BP-Main-Arista']));

    const rem = await snmpbulkwalk(sim.port, 'arista', LLDP_REM);
    const localPortIds = byIndex(await snmpbulkwalk(sim.port, 'arista', LLDP_LOC_PORT_ID), LLDP_LOC_PORT_ID);
    const remSysNames = byIndex(rem, `${LLDP_REM}.9`);
    const expected = [...remSysNames].map(([index, sysName]) => ({
      local: localPortIds.get(index.split('.')[1] as string),
      sysName,
      portId: rem.get(`${LLDP_REM}.7.${index}`),
    }));
    expect(expected.length).toBe(2);
    expect(
      reading?.neighbours.map((n) => ({ local: n.localIfName, sysName: n.sysName, portId: n.portId })),
    ).toEqual(expected);
    // The neighbour (ZJ-BP-Bak-Arista) is not among the targets: both cables are reported as seen from one end.
    expect(source.links()).toEqual(
      expected.map((e) => ({
        a: { switchName: 'ZJ-BP-Main-Arista', portName: e.local, portNumber: Number(e.local?.slice(8)) },
        b: { switchName: e.sysName, portName: e.portId, portNumber: null },
        seenFrom: 'one-end',
      })),
    );
  });

  it("reads Ethernet5's transceiver as snmpbulkwalk gives its sensors, and keeps them through counters sweeps", async () => {
    const source = snmpSource({
      targets: parseSnmpTargets(`127.0.0.1:${sim.port} v2c arista`),
      fullEvery: 2,
    });
    await source.read(AbortSignal.timeout(20_000));
    const sensors = await snmpbulkwalk(sim.port, 'arista', SENSOR);
    // RFC 3433: watts(6) at milli(8), amperes(5) at milli, celsius(8) and voltsDC(4) at units(9); shown in mW and mA.
    const column = (c: number, index: string) => Number(sensors.get(`${SENSOR}.${c}.${index}`));
    const expected = ['100305201', '100305202', '100305211', '100305212', '100305213'].map((index) => {
      const milli = column(2, index) === 8 ? -3 : 0;
      const shown = column(1, index) === 5 || column(1, index) === 6 ? 3 : 0;
      const value = column(4, index) * 10 ** (milli + shown - column(3, index));
      return expect.closeTo(value, 12);
    });
    const ethernet5 = () => source.readings()[0]?.interfaces.find((i) => i.name === 'Ethernet5');
    expect(ethernet5()?.optics?.map((o) => o.value)).toEqual(expected);
    expect(ethernet5()?.optics?.map((o) => [o.sensor, o.description, o.value])).toEqual([
      ['temperature', 'DOM Temperature Sensor for Ethernet5', 22.9],
      ['supplyVoltage', 'DOM Voltage Sensor for Ethernet5', 3.3],
      ['txBias', 'DOM TX Bias Sensor for Ethernet5', 5.09],
      ['txPower', 'DOM TX Power Sensor for Ethernet5', 0.6015],
      ['rxPower', 'DOM RX Power Sensor for Ethernet5', 0.4025],
    ]);
    const withOptics = source
      .readings()[0]
      ?.interfaces.filter((i) => i.optics)
      .map((i) => i.name);
    expect(withOptics).toEqual(['Ethernet5', 'Ethernet47', 'Ethernet50']);
    // As GET /port asks for them: the switch by its GUID, Ethernet5 its port 5 (ports numbered in ifIndex order).
    const guid = switchGuid(source.readings()[0] ?? { name: '', chassisId: '' });
    expect(switchPortOptics(source.readings(), guid, 5)).toBe(ethernet5()?.optics);
    expect(switchPortOptics(source.readings(), guid, 6)).toBeUndefined();
    // The next sweep reads counters only: the optics are the full walk's.
    await source.read(AbortSignal.timeout(20_000));
    expect(ethernet5()?.optics?.length).toBe(5);
  });

  it('reads the same switch through SNMPv3 (SHA, AES), its recording chosen by context', async () => {
    const v2c = snmpSource({ targets: parseSnmpTargets(`127.0.0.1:${sim.port} v2c arista`) });
    const v3 = snmpSource({
      targets: parseSnmpTargets(
        `127.0.0.1:${sim.port} v3 monitor sha authpass1 aes privpass1 context=arista`,
      ),
    });
    const byV3 = await v3.read(AbortSignal.timeout(20_000));
    const byV2c = await v2c.read(AbortSignal.timeout(20_000));
    expect(byV3.targets?.map((t) => t.outcome)).toEqual(['ok']);
    const shape = (s: typeof byV3) =>
      s.ports.map((p) => [p.nodeName, p.portNumber, p.rateBytesPerSecond, p.linkUp]);
    expect(shape(byV3)).toEqual(shape(byV2c));
    expect(byV3.ports.length).toBe(53);
    expect(v3.links()).toEqual(v2c.links());
    const wrongKey = snmpSource({
      targets: parseSnmpTargets(
        `127.0.0.1:${sim.port} v3 monitor sha wrongpass1 aes privpass1 context=arista`,
      ),
      timeoutMs: 2000,
      retries: 0,
    });
    const refused = await wrongKey.read(AbortSignal.timeout(20_000));
    expect(refused.ports).toEqual([]);
    expect(refused.targets?.[0]?.outcome).not.toBe('ok');
    expect(refused.targets?.[0]?.reason).toEqual(expect.any(String));
  });

  it('reads counters that advance between walks, as snmpbulkwalk sees them in between', async () => {
    const source = snmpSource({ targets: parseSnmpTargets(`127.0.0.1:${sim.port} v2c arista`) });
    const firstStart = performance.now();
    const first = await source.read(AbortSignal.timeout(20_000));
    const firstEnd = performance.now();
    const firstTicks = source.readings()[0]?.upTimeTicks ?? Number.NaN;
    const between = byIndex(await snmpbulkwalk(sim.port, 'arista', IF_HC_OUT_OCTETS), IF_HC_OUT_OCTETS);
    // The agent's counters move with its clock: wait for a second of it to pass.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const secondStart = performance.now();
    const second = await source.read(AbortSignal.timeout(20_000));
    const secondEnd = performance.now();
    expect(source.readings()[0]?.upTimeTicks).toBeGreaterThan(firstTicks + 100);
    // ifIndex 47, Ethernet47: up; the recording varies its ifHCOut/InOctets at 250000 and 125000 × 48 bytes/s.
    const port47 = source.readings()[0]?.interfaces.findIndex((i) => i.ifIndex === 47) ?? -1;
    const a = first.ports[port47];
    const b = second.ports[port47];
    expect(a?.linkUp).toBe(true);
    expect(Number(between.get('47'))).toBeGreaterThanOrEqual(a?.transmitBytes ?? Number.NaN);
    expect(Number(between.get('47'))).toBeLessThanOrEqual(b?.transmitBytes ?? Number.NaN);
    // Each counter was read at some moment of its walk: the advance lies between the walks' nearest and farthest ends.
    const shortest = (secondStart - firstEnd) / 1000;
    const longest = (secondEnd - firstStart) / 1000;
    const transmit = (b?.transmitBytes ?? 0) - (a?.transmitBytes ?? 0);
    expect(transmit).toBeGreaterThanOrEqual(12_000_000 * shortest * 0.99);
    expect(transmit).toBeLessThanOrEqual(12_000_000 * longest * 1.01);
    const receive = (b?.receiveBytes ?? 0) - (a?.receiveBytes ?? 0);
    expect(receive).toBeGreaterThanOrEqual(6_000_000 * shortest * 0.99);
    expect(receive).toBeLessThanOrEqual(6_000_000 * longest * 1.01);
    expect(b?.transmitPackets).toBeGreaterThan(a?.transmitPackets ?? Number.NaN);
  });

  it('loses only the failing agents: a timeout, a missing IF-MIB and a restart each counted with a reason', async () => {
    const silent = await freeUdpPort();
    const source = snmpSource({
      targets: parseSnmpTargets(
        [
          `127.0.0.1:${sim.port} v2c arista`,
          `127.0.0.1:${silent} v2c public`,
          `127.0.0.1:${sim.port} v2c bare`,
        ].join('\n'),
      ),
      // Long enough for a loaded machine's snmpsim, which answers its first walk after a start slowly.
      timeoutMs: 2000,
      retries: 0,
    });
    const first = await source.read(AbortSignal.timeout(20_000));
    expect(first.targets?.map((t) => [t.outcome, t.reason])).toEqual([
      ['ok', undefined],
      ['timeout', expect.stringMatching(/timed out/i)],
      ['error', 'no ifXTable (64-bit counters) in the answer'],
    ]);
    expect(first.ports.length).toBe(53);
    await sim.restart();
    const afterRestart = await source.read(AbortSignal.timeout(20_000));
    expect(afterRestart.targets?.[0]).toMatchObject({
      outcome: 'error',
      reason: expect.stringMatching(/^agent restarted: sysUpTime went back/),
    });
    expect(afterRestart.ports).toEqual([]);
    const next = await source.read(AbortSignal.timeout(20_000));
    expect(next.targets?.[0]?.outcome).toBe('ok');
    expect(next.ports.length).toBe(53);
  }, 60_000);
});
