// The InfiniBand port reader against a real simulated subnet: ibsim answers the MADs, OpenSM
// assigns the LIDs and routes, and infiniband-diags (ibnetdiscover, perfquery) say what the right
// answers are. Nothing is mocked.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { type Fabric, FabricBuilder, type IbPortLine, parsePortsReportLines } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IB_PORT_READER_DEFAULTS,
  type IbPortReader,
  type IbPortTarget,
  openIbPortReader,
  parsePerfquery,
} from '../../../src/index.ts';

const run = promisify(execFile);
// No test skips silently: without the lab's packages startLab fails, naming them (npm test
// installs them when root).

/** ibsim's accounting: every MAD that crosses a link counts 1 packet and 72 words at both ends (sim_mad.c pc_updated). */
const MAD_WORDS = 72n;

/**
 * Two switches joined by three cables, seven hosts cabled at every width and each speed Debian's ibsim 0.10 can
 * negotiate. h1 comes first: ibsim attaches its clients (OpenSM, the tools, the reader) there.
 */
function speedsFabric(): Fabric {
  const b = new FabricBuilder('reader-speeds', 'infiniband');
  const guid = (kind: number, n: number) => `0x${(kind * 0x100000 + n).toString(16).padStart(16, '0')}`;
  const hosts = [
    ['h1', 'sw1', 1, '4xEDR'],
    ['h2', 'sw1', 2, '4xSDR'],
    ['h3', 'sw1', 3, '1xQDR'],
    ['h4', 'sw2', 1, '4xHDR'],
    ['h5', 'sw2', 2, '12xFDR'],
    ['h6', 'sw2', 3, '2xHDR'],
    ['h7', 'sw2', 4, '8xDDR'],
  ] as const;
  hosts.forEach(([name], i) => {
    b.addNode({ name, type: 'host', guid: guid(1, i + 1), portCount: 1 });
  });
  b.addNode({ name: 'sw1', type: 'switch', guid: guid(2, 1), portCount: 12 });
  b.addNode({ name: 'sw2', type: 'switch', guid: guid(2, 2), portCount: 12 });
  for (const [name, sw, port, widthSpeed] of hosts) b.connect(name, 1, sw, port, 100, 'host', { widthSpeed });
  for (const p of [10, 11, 12]) b.connect('sw1', p, 'sw2', p, 100, 'isl', { widthSpeed: '4xEDR' });
  return b.build();
}

/** ibsim's PMA: CapabilityMask2 0 (no 64-bit error counters), no PortSamplesControl, nothing cleared. */
const NARROW_COUNTERS = {
  countersExtended: false,
  samplesTick: null,
  samplesCounterWidth: null,
  cleared: [],
};

/** Pids of this process's reader children. */
function readerChildren(): string[] {
  return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes('ib-port-reader-main'))
    .map((l) => l.trim().split(/\s+/)[0] as string);
}

/** Each switch's LFT from OpenSM's dump: switch name → LID → out port. */
function parseLfts(dump: string): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  let current: Map<number, number> | undefined;
  for (const line of dump.split('\n')) {
    const head = /^Unicast lids .*\('(.+)'\):$/.exec(line);
    if (head) {
      current = new Map();
      out.set(head[1] as string, current);
      continue;
    }
    const entry = /^0x([0-9a-f]+) (\d+) /i.exec(line);
    if (entry && current) current.set(Number.parseInt(entry[1] as string, 16), Number(entry[2]));
  }
  return out;
}

describe('openIbPortReader on ibsim + OpenSM', () => {
  let lab: Lab;
  let reader: IbPortReader;
  let report: IbPortLine[];
  const tool = async (cmd: string, args: string[]) =>
    (await run(cmd, args, { env: { ...process.env, ...lab.env }, maxBuffer: 64 << 20 })).stdout;
  const line = (name: string, port: number) => {
    const l = report.find((r) => r.local.name === name && r.local.port === port);
    if (!l) throw new Error(`${name}/${port} is not in ibnetdiscover's report`);
    return l;
  };
  const target = (name: string, port: number): IbPortTarget => ({ lid: line(name, port).local.lid, port });
  const performanceSet = (node: string, port: number, field: string, value: bigint) =>
    lab.performanceSet(node, port, field, value);

  beforeAll(async () => {
    lab = await startLab({
      net: ibsimNetFile(speedsFabric()),
      routing: 'minhop',
      sockName: `fabscope-reader-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    report = parsePortsReportLines(await tool('ibnetdiscover', ['-p']));
    reader = openIbPortReader({ env: lab.env });
  });

  afterAll(async () => {
    await reader?.close();
    await lab?.stop();
  });

  it('reads width and speed of every port as ibnetdiscover -p prints them', async () => {
    const sweep = await reader.read(report.map((l) => ({ lid: l.local.lid, port: l.local.port })));
    expect(sweep.failures).toBe(0);
    expect(sweep.readings).toHaveLength(report.length);
    const ours = sweep.readings.map((r) => `${r.linkWidthActive}x ${r.linkSpeedActive}`);
    expect(ours).toEqual(report.map((l) => `${l.width} ${l.speed}`));
    // The fabric has every speed ibsim negotiates, and the cabled ports are up.
    const cabled = new Set(report.filter((l) => l.remote).map((l) => `${l.width} ${l.speed}`));
    expect(cabled).toEqual(new Set(['4x EDR', '4x SDR', '1x QDR', '4x HDR', '12x FDR', '2x HDR', '8x DDR']));
    sweep.readings.forEach((r, i) => {
      if (report[i]?.remote) expect([r.portState, r.physicalState]).toEqual([4, 5]);
    });
    expect(sweep.madsSent).toBeGreaterThanOrEqual(3 * report.length);
  });

  it('reports a LID nobody has as a failure of that port and reads the others', async () => {
    const targets = [target('sw2', 1), { lid: 0x0bad, port: 1 }, target('h4', 1)];
    const sweep = await reader.read(targets);
    expect(sweep.failures).toBe(1);
    const [first, missingPort, last] = sweep.readings;
    expect(missingPort).toEqual({
      portState: null,
      physicalState: null,
      linkWidthActive: null,
      linkSpeedActive: null,
      transmitBytes: null,
      receiveBytes: null,
      transmitPackets: null,
      receivePackets: null,
      transmitWaitTicks: null,
      errors: null,
      countersExtended: false,
      samplesTick: null,
      samplesCounterWidth: null,
      cleared: [],
      countersReadAtMs: null,
      failure:
        'PortInfo: no answer after 3 tries; PortCounters: no answer after 3 tries; PortCountersExtended: no answer after 3 tries; ' +
        'PortInfo of port 0 (capability masks: link speed unknown): no answer after 3 tries; ' +
        'ClassPortInfo (PortXmitWait support unknown): no answer after 3 tries',
    });
    for (const r of [first, last]) {
      expect(r?.failure).toBeUndefined();
      expect(r?.portState).toBe(4);
      expect(r?.transmitBytes).toBeTypeOf('bigint');
      expect(r?.errors?.SymbolErrorCounter).toBe(0);
    }
    // Each of its three MADs and its LID's two capability probes were sent again twice.
    expect(sweep.retries).toBe(10);
  });

  it('reads every port by LID with the subnet manager stopped', async () => {
    await lab.stopSm();
    expect(lab.smRunning()).toBe(false);
    const cabled = report.filter((l) => l.remote);
    const sweep = await reader.read(cabled.map((l) => ({ lid: l.local.lid, port: l.local.port })));
    expect(sweep.failures).toBe(0);
    for (const r of sweep.readings) {
      expect(r.portState).toBe(4);
      expect(r.errors).not.toBeNull();
      expect(r.transmitPackets).toBeGreaterThan(0n);
    }
  });

  it('reads back what PerformanceSet wrote, exactly, as perfquery prints it (switch and host ports)', async () => {
    // With OpenSM stopped (above) no MAD crosses a port but ours and perfquery's. sw2/2 goes to
    // h5, which is not read: no MAD crosses it at all.
    const sw = target('sw2', 2);
    const host = target('h4', 1);
    await reader.read([sw, host]); // the capability probes of both LIDs, before the counters are set
    const values = (k: bigint) => ({
      'PortCountersExtended.PortXmitData': 2n ** 60n + 7n * k,
      'PortCountersExtended.PortRcvData': 2n ** 40n + 3n * k,
      'PortCountersExtended.PortXmitPkts': 123_456_789_012n + k,
      'PortCountersExtended.PortRcvPkts': 987_654_321n + k,
      'PortCounters.SymbolErrorCounter': 65_000n + k,
      'PortCounters.LinkErrorRecoveryCounter': 200n + k,
      'PortCounters.LinkDownedCounter': 17n + k,
      'PortCounters.PortRcvErrors': 1001n + k,
      'PortCounters.PortRcvRemotePhysicalErrors': 1002n + k,
      'PortCounters.PortRcvSwitchRelayErrors': 1003n + k,
      'PortCounters.PortXmitDiscards': 1004n + k,
      'PortCounters.PortXmitConstraintErrors': 21n + k,
      'PortCounters.PortRcvConstraintErrors': 22n + k,
      'PortCounters.LocalLinkIntegrityErrors': 13n + k,
      'PortCounters.ExcessiveBufferOverrunErrors': 9n - k,
      'PortCounters.VL15Dropped': 1005n + k,
      'PortCounters.PortXmitWait': 4_000_000_000n + k,
    });
    const written = { sw: values(0n), host: values(1n) };
    for (const [field, v] of Object.entries(written.sw)) await performanceSet('sw2', 2, field, v);
    for (const [field, v] of Object.entries(written.host)) await performanceSet('h4', 1, field, v);

    const before = Date.now();
    const sweep = await reader.read([sw, host]);
    const after = Date.now();
    expect(sweep.failures).toBe(0);
    const [swReading, hostReading] = sweep.readings;
    // Each port stamped with its own answer's instant, within the read.
    for (const r of sweep.readings) {
      expect(r.countersReadAtMs).toBeGreaterThanOrEqual(before);
      expect(r.countersReadAtMs).toBeLessThanOrEqual(after);
    }
    const errorsOf = (w: Record<string, bigint>) =>
      Object.fromEntries(
        Object.entries(w)
          .filter(([f]) => f.startsWith('PortCounters.') && !f.endsWith('PortXmitWait'))
          .map(([f, v]) => [f.slice('PortCounters.'.length), Number(v)]),
      );
    const w = written.sw;
    expect(swReading).toEqual({
      portState: 4,
      physicalState: 5,
      linkWidthActive: 12,
      linkSpeedActive: 'FDR',
      transmitBytes: 4n * w['PortCountersExtended.PortXmitData'],
      receiveBytes: 4n * w['PortCountersExtended.PortRcvData'],
      transmitPackets: w['PortCountersExtended.PortXmitPkts'],
      receivePackets: w['PortCountersExtended.PortRcvPkts'],
      transmitWaitTicks: w['PortCounters.PortXmitWait'],
      errors: errorsOf(w),
      ...NARROW_COUNTERS,
      countersReadAtMs: swReading?.countersReadAtMs,
    });
    // A host port is where the MADs that read it arrive: PortCountersExtended is read first, so its
    // answer holds its own request (one packet in) and none of the port's answers yet.
    const h = written.host;
    expect(hostReading).toEqual({
      portState: 4,
      physicalState: 5,
      linkWidthActive: 4,
      linkSpeedActive: 'HDR',
      transmitBytes: 4n * h['PortCountersExtended.PortXmitData'],
      receiveBytes: 4n * (h['PortCountersExtended.PortRcvData'] + MAD_WORDS),
      transmitPackets: h['PortCountersExtended.PortXmitPkts'],
      receivePackets: h['PortCountersExtended.PortRcvPkts'] + 1n,
      transmitWaitTicks: h['PortCounters.PortXmitWait'],
      errors: errorsOf(h),
      ...NARROW_COUNTERS,
      countersReadAtMs: hostReading?.countersReadAtMs,
    });

    // perfquery prints the same for the switch port, every counter; and for the host port the same
    // error counters and XmitWait (its data counters have moved by the MADs since).
    const [swExt] = parsePerfquery(await tool('perfquery', ['-x', String(sw.lid), String(sw.port)]));
    const [swBasic] = parsePerfquery(await tool('perfquery', [String(sw.lid), String(sw.port)]));
    expect(swExt?.transmitBytes).toBe(swReading?.transmitBytes);
    expect(swExt?.receiveBytes).toBe(swReading?.receiveBytes);
    expect(swExt?.transmitPackets).toBe(swReading?.transmitPackets);
    expect(swExt?.receivePackets).toBe(swReading?.receivePackets);
    const [hostBasic] = parsePerfquery(await tool('perfquery', [String(host.lid), String(host.port)]));
    for (const [basic, reading] of [
      [swBasic, swReading],
      [hostBasic, hostReading],
    ] as const) {
      expect(basic?.transmitWait).toBe(reading?.transmitWaitTicks);
      for (const [name, value] of Object.entries(reading?.errors ?? {})) {
        expect([name, basic?.counters[name]]).toEqual([name, BigInt(value)]);
      }
    }
  });

  it('sees a pulled cable Down in the next read when its LinkDownedCounter moved; else within portInfoEvery reads', async () => {
    // An ISL that neither the route from h1 (where the reader sits) to sw2 nor the route back uses,
    // so both its ends stay reachable by LID without a subnet manager to route around it.
    const lfts = parseLfts(await lab.waitForLfts());
    const h1 = line('h1', 1).local.lid;
    const sw2Lid = line('sw2', 1).local.lid;
    const isl = [10, 11, 12].find(
      (p) => lfts.get('sw1')?.get(sw2Lid) !== p && lfts.get('sw2')?.get(h1) !== p,
    );
    if (isl === undefined) throw new Error('every ISL carries the route to sw2 or back');
    const targets = [
      target('sw1', isl),
      target('sw2', isl),
      target('sw2', 3),
      target('h6', 1),
      target('sw1', 3),
    ];
    const before = await reader.read(targets);
    expect(before.readings.map((r) => r.portState)).toEqual([4, 4, 4, 4, 4]);
    expect(before.madsByAttribute.PortInfo).toBe(5);

    // A pulled cable counts in LinkDownedCounter at both ends; the lab counts the end it pulls, so the
    // test counts the far ends. h3's cable (sw1 port 3) is downed by ibsim alone, without a count.
    for (const [node, p] of [
      ['sw1', isl],
      ['sw2', isl],
      ['sw2', 3],
    ] as const)
      await performanceSet(node, p, 'PortCounters.LinkDownedCounter', 1n);
    await lab.unlink('sw1', isl);
    await lab.unlink('sw2', 3); // h6's cable: h6 cannot be reached any more
    await lab.command('Unlink "sw1"[3]');
    const after = await reader.read(targets);
    const [a, b, c, d, e] = after.readings;
    expect([a?.portState, a?.physicalState]).toEqual([1, 2]);
    expect([b?.portState, b?.physicalState]).toEqual([1, 2]);
    expect(c?.portState).toBe(1);
    // The far end of a pulled host cable answers nothing: a counted failure, no value, not 0.
    expect(d?.portState).toBeNull();
    expect(d?.transmitBytes).toBeNull();
    expect(d?.failure).toMatch(/^PortInfo: no answer after 3 tries/);
    expect(after.failures).toBe(1);
    // Its counters unmoved, sw1 port 3 is not asked its PortInfo yet: the last answer stands, at most
    // portInfoEvery sweeps old (docs/metrics.md).
    expect(e?.portState).toBe(4);
    const every = IB_PORT_READER_DEFAULTS.portInfoEvery;
    let reads = 1;
    while (reads < every && (await reader.read(targets)).readings[4]?.portState !== 1) reads++;
    expect(reads).toBeLessThan(every);
    // Down ports are asked every sweep, and so is one unanswered the sweep before (h6, three tries):
    // the one that comes up is seen at once.
    await lab.link({ node: 'sw1', port: 3 }, { node: 'h3', port: 1 });
    const relinked = await reader.read(targets);
    expect(relinked.readings[4]?.physicalState).toBe(5);
    expect(relinked.madsByAttribute.PortInfo).toBe(4 + 3);
  });

  it('an aborted read rejects at once; the next read still answers, and so does a new child after a crash', async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => target('sw1', 1 + (i % 3)));
    const controller = new AbortController();
    const started = performance.now();
    const aborted = reader.read(many, controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(aborted).rejects.toThrow(/abort/i);
    const abortedAfter = performance.now() - started;
    const next = await reader.read([target('sw1', 1)]);
    expect(next.readings[0]?.portState).toBe(4);
    expect(abortedAfter).toBeLessThan(performance.now() - started);
    await expect(reader.read([target('sw1', 1)], AbortSignal.abort())).rejects.toThrow(/abort/i);
    expect((await reader.read([])).readings).toEqual([]);

    // The child killed under a read: that read fails with the reason, the next starts a new child.
    const [pid] = readerChildren();
    const crashed = reader.read(many);
    process.kill(Number(pid), 'SIGKILL');
    await expect(crashed).rejects.toThrow(/InfiniBand port reader exited \(SIGKILL\)/);
    const again = await reader.read([target('sw2', 1)]);
    expect(again.readings[0]?.portState).toBe(4);
    expect(readerChildren()).toHaveLength(1);
  });

  it('stops its child when closed', async () => {
    const second = openIbPortReader({ env: lab.env });
    await second.read([target('sw1', 1)]);
    expect(readerChildren()).toHaveLength(2);
    await reader.close();
    await second.close();
    expect(readerChildren()).toEqual([]);
    await expect(second.read([target('sw1', 1)])).rejects.toThrow(/closed/);
  });
});

describe('openIbPortReader without an adapter', () => {
  it('fails the read with the reason, and refuses targets that are no port', async () => {
    // No LD_PRELOAD: this machine has no InfiniBand adapter of its own.
    const reader = openIbPortReader({ env: { LD_PRELOAD: '', IBSIM_SOCKNAME: '' } });
    try {
      await expect(reader.read([{ lid: 1, port: 1 }])).rejects.toThrow(/umad_open_port: no InfiniBand port/);
      await expect(reader.read([{ lid: 0xc000, port: 1 }])).rejects.toThrow(/not a unicast LID/);
      await expect(reader.read([{ lid: 1, port: 255 }])).rejects.toThrow(/not a port number/);
    } finally {
      await reader.close();
    }
    const missingCommand = openIbPortReader({ command: ['/nonexistent/fabscope-reader'] });
    await expect(missingCommand.read([{ lid: 1, port: 1 }])).rejects.toThrow(/cannot start \/nonexistent/);
    await missingCommand.close();
  });
});
