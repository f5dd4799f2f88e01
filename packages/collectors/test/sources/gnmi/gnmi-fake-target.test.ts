import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { counterRate } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FabricSnapshot, PortSample } from '../../../src/fabric/port-sample.ts';
import { type GnmiFabricSource, gnmiSource } from '../../../src/sources/gnmi/gnmi-source.ts';
import { parseGnmiTargets } from '../../../src/sources/gnmi/gnmi-targets.ts';
import { type FakeLeaf, type FakeTarget, fakeTargetBinary, startFakeTarget } from './fake-target.ts';

const EVERY_MS = 100;
const iface = (name: string, ...rest: string[]) => ['interfaces', `interface[name=${name}]`, ...rest];
const counter = (name: string, leaf: string, step: number): FakeLeaf => ({
  path: iface(name, 'state', 'counters', leaf),
  value: { counter: 1_000_000, step },
});
const queue = (name: string, q: string, leaf: string, step: number): FakeLeaf => ({
  path: [
    'qos',
    'interfaces',
    `interface[interface-id=${name}]`,
    'output',
    'queues',
    `queue[name=${q}]`,
    'state',
    leaf,
  ],
  value: { counter: 0, step },
});
const text = (path: string[], value: string): FakeLeaf => ({ path, value: { text: value } });
const lldp = (name: string, leaf: string, value: string): FakeLeaf =>
  text(
    ['lldp', 'interfaces', `interface[name=${name}]`, 'neighbors', 'neighbor[id=1]', 'state', leaf],
    value,
  );

/** leaf1: two ports, one with QoS queue counters, one sending in-errors that are not a counter. */
const LEAF1: FakeLeaf[] = [
  counter('Ethernet1', 'in-octets', 125_000),
  counter('Ethernet1', 'out-octets', 250_000),
  counter('Ethernet1', 'in-unicast-pkts', 100),
  counter('Ethernet1', 'out-unicast-pkts', 200),
  counter('Ethernet1', 'in-errors', 1),
  counter('Ethernet1', 'out-discards', 3),
  text(iface('Ethernet1', 'state', 'oper-status'), 'UP'),
  text(iface('Ethernet1', 'ethernet', 'state', 'port-speed'), 'openconfig-if-ethernet:SPEED_100GB'),
  lldp('Ethernet1', 'system-name', 'leaf2'),
  lldp('Ethernet1', 'port-id', 'Ethernet1'),
  queue('Ethernet1', '3', 'ecn-marked-pkts', 5),
  queue('Ethernet1', '3', 'pfc-pause-frames-received', 2),
  counter('Ethernet2', 'in-octets', 10_000),
  text(iface('Ethernet2', 'state', 'counters', 'in-errors'), 'garbage'),
  text(iface('Ethernet2', 'state', 'oper-status'), 'DOWN'),
];
/** leaf2: one 400G port, no QoS counters. */
const LEAF2: FakeLeaf[] = [
  counter('Ethernet1', 'in-octets', 50_000),
  counter('Ethernet1', 'out-octets', 50_000),
  text(iface('Ethernet1', 'state', 'oper-status'), 'UP'),
  text(iface('Ethernet1', 'ethernet', 'state', 'port-speed'), 'SPEED_400GB'),
  lldp('Ethernet1', 'system-name', 'leaf1'),
  lldp('Ethernet1', 'port-id', 'Ethernet1'),
];

let dir: string;
let leaf1: FakeTarget;
let leaf2: FakeTarget;
let source: GnmiFabricSource;

beforeAll(async () => {
  const binary = fakeTargetBinary();
  dir = mkdtempSync(join(tmpdir(), 'fabscope-gnmi-'));
  const credentials = { username: 'fabscope', password: 's3cret' };
  leaf1 = await startFakeTarget(
    binary,
    dir,
    'leaf1',
    { leaves: LEAF1, everyMs: EVERY_MS, credentials },
    true,
  );
  leaf2 = await startFakeTarget(binary, dir, 'leaf2', { leaves: LEAF2, everyMs: EVERY_MS }, false);
  process.env.FABSCOPE_TEST_GNMI_PASSWORD = 's3cret';
  process.env.FABSCOPE_TEST_GNMI_WRONG = 'guess';
  const auth = `ca=${leaf1.certFile} server-name=localhost username=fabscope`;
  const targets = parseGnmiTargets(
    [
      `127.0.0.1:${leaf1.port} tls name=leaf1 ${auth} password-env=FABSCOPE_TEST_GNMI_PASSWORD sample-ms=1000`,
      `127.0.0.1:${leaf2.port} insecure name=leaf2 sample-ms=1000`,
      `127.0.0.1:${leaf1.port} tls name=intruder target=x ${auth} password-env=FABSCOPE_TEST_GNMI_WRONG`,
    ].join('\n'),
  );
  source = gnmiSource({ targets, backoff: { initialMs: 100, maxMs: 400 } });
}, 600_000);

afterAll(async () => {
  source?.close();
  await leaf1?.kill();
  await leaf2?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Reads until `done` holds for a read, at most `ms` of wall time: the fake target streams in real time. */
async function readUntil(done: (s: FabricSnapshot) => boolean, ms = 15_000): Promise<FabricSnapshot> {
  const deadline = Date.now() + ms;
  for (;;) {
    const snapshot = await source.read(AbortSignal.timeout(5000));
    if (done(snapshot)) return snapshot;
    if (Date.now() > deadline)
      throw new Error(`not reached in ${ms} ms: ${JSON.stringify(snapshot.targets)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const outcome = (s: FabricSnapshot, label: string) => s.targets?.find((t) => t.target.endsWith(label));
const port = (s: FabricSnapshot, node: string, n: number) =>
  s.ports.find((p) => p.nodeName === node && p.portNumber === n) as PortSample;

describe('the gNMI source against the fake gNMI target of github.com/openconfig/gnmi', () => {
  it('streams counters, state and speed over TLS with a password; rates as the generators set them', async () => {
    const first = await readUntil(
      (s) =>
        outcome(s, `:${leaf1.port}`)?.outcome === 'ok' &&
        outcome(s, `:${leaf2.port}`)?.outcome === 'ok' &&
        Number.isFinite(port(s, 'leaf1', 1)?.transmitPackets) &&
        port(s, 'leaf1', 1)?.remote !== null &&
        port(s, 'leaf2', 1)?.remote !== null &&
        Number.isFinite(port(s, 'leaf2', 1)?.transmitBytes),
    );
    const startedMs = Date.now();
    const e1 = port(first, 'leaf1', 1);
    expect(e1).toMatchObject({ nodeType: 'switch', linkUp: true, rateBytesPerSecond: 100e9 / 8 });
    expect(port(first, 'leaf1', 2)).toMatchObject({ linkUp: false, rateBytesPerSecond: Number.NaN });
    expect(port(first, 'leaf2', 1)).toMatchObject({ linkUp: true, rateBytesPerSecond: 400e9 / 8 });
    // The cable between them, from both ends' LLDP.
    expect(e1.remote).toMatchObject({ nodeName: 'leaf2', portNumber: 1, nodeType: 'switch' });
    expect(port(first, 'leaf2', 1).remote).toMatchObject({ nodeName: 'leaf1', portNumber: 1 });
    expect(e1.remote?.nodeGuid).toBe(port(first, 'leaf2', 1).nodeGuid);
    // Never streamed: unknown, not 0.
    expect(port(first, 'leaf2', 1).transmitPackets).toBeNaN();
    expect(port(first, 'leaf2', 1).errors?.receiveErrors).toBeNaN();
    // The malformed in-errors cost that update only: Ethernet2's octets still come through.
    expect(port(first, 'leaf1', 2).errors?.receiveErrors).toBeNaN();
    expect(Number.isFinite(port(first, 'leaf1', 2).receiveBytes)).toBe(true);
    const status = source.statuses().find((s) => s.target.endsWith(`:${leaf1.port}`))?.status;
    expect(status?.malformedUpdates).toBeGreaterThan(0);
    expect(status?.lastMalformed).toMatch(/Ethernet2.*in-errors: not a counter64: "garbage"/);
    // A wrong password is refused by the target: that line has no ports and says why.
    expect(outcome(first, '/line3')?.reason).toMatch(/wrong username or password/);
    expect(first.ports.some((p) => p.nodeName === 'intruder')).toBe(false);

    const later = await readUntil((s) => port(s, 'leaf1', 1)?.receiveBytes >= e1.receiveBytes + 30 * 125_000);
    const seconds = (Date.now() - startedMs) / 1000;
    const l1 = port(later, 'leaf1', 1);
    const rate = (field: 'receiveBytes' | 'transmitBytes' | 'receivePackets') =>
      counterRate(e1[field], l1[field], seconds) as number;
    // The generator adds its step every 100 ms of wall time (later on a loaded machine, never sooner);
    // reads see a step up to one step and one poll late, and out-octets one update after in-octets.
    expect(rate('receiveBytes')).toBeGreaterThan(0.6 * 1.25e6);
    expect(rate('receiveBytes')).toBeLessThan(1.2 * 1.25e6);
    expect(rate('transmitBytes') / rate('receiveBytes')).toBeGreaterThan(1.8);
    expect(rate('transmitBytes') / rate('receiveBytes')).toBeLessThan(2.2);
    expect(rate('receivePackets')).toBeGreaterThan(0.6 * 1000);
    expect(rate('receivePackets')).toBeLessThan(1.2 * 1000);
    expect(l1.errors?.transmitDiscards).toBeGreaterThan(e1.errors?.transmitDiscards as number);

    const congestion = source.congestion();
    const leaf1E1 = congestion.find((c) => c.nodeName === 'leaf1' && c.interface === 'Ethernet1');
    expect(leaf1E1?.ecnMarkedPackets).toBeGreaterThan(0);
    expect(Object.keys(leaf1E1?.pfcPauseReceived ?? {})).toEqual(['3']);
    const leaf2E1 = congestion.find((c) => c.nodeName === 'leaf2');
    expect(leaf2E1?.ecnMarkedPackets).toBeNaN();
    expect(leaf2E1?.pfcPauseReceived).toEqual({});
    // The port samples carry them as the SNMP source does: pause received as the wait, ECN marks as markFecn.
    expect(l1.transmitWaitTicks).toBeGreaterThan(0);
    expect(l1.transmitWaitTickSeconds).toBeCloseTo((65535 * 512) / 2 / 100e9, 12);
    expect(l1.errors?.markFecn).toBeGreaterThan(0);
    expect(port(later, 'leaf2', 1).transmitWaitTicks).toBeNaN();
    expect(port(later, 'leaf2', 1).errors?.markFecn).toBeUndefined();
  }, 60_000);

  it('a target killed is a gap with its reason, resubscribed when it is back; the other one is untouched', async () => {
    const before = await readUntil((s) => outcome(s, `:${leaf1.port}`)?.outcome === 'ok');
    const leaf1Bytes = port(before, 'leaf1', 1).receiveBytes;
    const leaf2Bytes = port(before, 'leaf2', 1).receiveBytes;
    await leaf1.kill();
    const gap = await readUntil((s) => outcome(s, `:${leaf1.port}`)?.outcome === 'error');
    expect(outcome(gap, `:${leaf1.port}`)?.reason).toMatch(/stream dropped|resubscribing/);
    expect(gap.ports.some((p) => p.nodeName === 'leaf1')).toBe(false);
    // leaf2 goes on streaming while leaf1 is away.
    const during = await readUntil((s) => port(s, 'leaf2', 1)?.receiveBytes > leaf2Bytes + 5 * 50_000);
    expect(outcome(during, `:${leaf2.port}`)?.outcome).toBe('ok');
    expect(during.ports.some((p) => p.nodeName === 'leaf1')).toBe(false);
    // Its cable's far end is not read now: unknown, as on SNMP.
    expect(port(during, 'leaf2', 1).remote).toBeNull();

    await leaf1.restart();
    const back = await readUntil(
      (s) =>
        outcome(s, `:${leaf1.port}`)?.outcome === 'ok' && Number.isFinite(port(s, 'leaf1', 1)?.receiveBytes),
    );
    // The target started again: its generators began again, as a rebooted switch's counters do.
    expect(port(back, 'leaf1', 1).receiveBytes).toBeLessThan(leaf1Bytes);
    const status = source.statuses().find((s) => s.target.endsWith(`:${leaf1.port}`))?.status;
    expect(status?.drops).toBeGreaterThanOrEqual(1);
    expect(status?.state).toBe('streaming');
    expect(outcome(back, `:${leaf2.port}`)?.outcome).toBe('ok');
  }, 60_000);
});
