import { derangement } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { parseRate, parseSize, transport } from '../../src/index.ts';
import { arDemoEmulator, counter, measuredRxRate, routerEmulator, singleSwitchEmulator } from '../helpers.ts';

const gbps = (bytesPerSecond: number) => (bytesPerSecond * 8) / 1e9;
const sum = (flows: { bytesPerSecond: number }[]) => flows.reduce((s, f) => s + f.bytesPerSecond, 0);

describe('traffic patterns', () => {
  it('shift k sends host i to host i+k', () => {
    const flows = singleSwitchEmulator().startFlows({ pattern: 'shift', k: 3 });
    expect(flows).toHaveLength(32);
    expect([flows[0]?.from, flows[0]?.to, flows[31]?.to]).toEqual(['node01', 'node04', 'node03']);
  });

  it('permutation is a seeded derangement: nobody sends to itself, same seed same pairs', () => {
    const a = singleSwitchEmulator().startFlows({ pattern: 'permutation', seed: 7 });
    const b = singleSwitchEmulator().startFlows({ pattern: 'permutation', seed: 7 });
    const c = singleSwitchEmulator().startFlows({ pattern: 'permutation', seed: 8 });
    expect(a.map((f) => f.to)).toEqual(b.map((f) => f.to));
    expect(a.map((f) => f.to)).not.toEqual(c.map((f) => f.to));
    expect(a.every((f) => f.from !== f.to)).toBe(true);
    expect(new Set(a.map((f) => f.to)).size).toBe(32);
    for (let seed = 0; seed < 50; seed++) expect(derangement(5, seed).every((v, i) => v !== i)).toBe(true);
  });

  it('incast shares the receiver: 31 senders at 1/31 of its port each, and the senders wait', () => {
    const emulator = singleSwitchEmulator();
    const flows = emulator.startFlows({ pattern: 'incast', to: 'node01' });
    expect(flows).toHaveLength(31);
    expect(sum(flows)).toBeCloseTo(12.375e9, -3);
    const before = emulator.portCounters();
    emulator.advance(1000);
    const after = emulator.portCounters();
    expect(
      counter(after, 'node02', 1, 'XmitWait') - counter(before, 'node02', 1, 'XmitWait'),
    ).toBeGreaterThan(0n);
  });

  it('bisection pairs the two halves both ways; items combine; unknown fields are refused', () => {
    const emulator = singleSwitchEmulator();
    expect(emulator.startFlows({ pattern: 'bisection' })).toHaveLength(32);
    emulator.stopAllFlows();
    const both = emulator.startFlows({
      items: [
        { pattern: 'pairs', pairs: [['node01', 'node02']] },
        { pattern: 'iperf', from: 'node03', to: 'node04', streams: 4 },
      ],
    });
    expect(both.map((f) => f.transport)).toEqual(['rdma', 'ip', 'ip', 'ip', 'ip']);
    expect(() => emulator.startFlows({ pattern: 'shift', k: 1, bogus: 1 } as never)).toThrow(
      'unknown field "bogus" for pattern "shift"',
    );
    expect(() => emulator.startFlows({ pattern: 'shift', k: 32 })).toThrow(/not a multiple of the 32 hosts/);
    expect(() => emulator.startFlows({ pattern: 'incast', to: 'nodeX' })).toThrow('to: unknown node "nodeX"');
  });

  it('storage read and write run between the server and its clients', () => {
    const emulator = singleSwitchEmulator();
    const read = emulator.startFlows({
      pattern: 'storage',
      server: 'node01',
      clients: ['node02', 'node03'],
      op: 'read',
      ioSize: '1MiB',
      jobs: 2,
    });
    expect(read.map((f) => `${f.from}>${f.to}`)).toEqual([
      'node01>node02',
      'node01>node02',
      'node01>node03',
      'node01>node03',
    ]);
    expect(read[0]?.messageBytes).toBe(1024 * 1024);
    const write = emulator.startFlows({
      pattern: 'storage',
      server: 'node01',
      clients: ['node04'],
      op: 'write',
    });
    expect(write[0]?.to).toBe('node01');
  });

  it('starts after `start` and stops after `duration`, deterministic in virtual time', () => {
    const emulator = arDemoEmulator();
    const [flow] = emulator.startFlows({
      pattern: 'pairs',
      pairs: [['nodeA', 'nodeC']],
      start: 2,
      duration: '3s',
    });
    expect(flow).toMatchObject({ state: 'pending', bytesPerSecond: 0, startMs: 2000, endMs: 5000 });
    emulator.advance(2000);
    expect(emulator.listFlows()[0]).toMatchObject({ state: 'running', bytesPerSecond: 12.375e9 });
    emulator.advance(3000);
    expect(emulator.listFlows()).toEqual([]);
    const data = counter(emulator.portCounters(), 'nodeA', 1, 'XmitData');
    expect(data).toBe(BigInt(Math.floor((12.375e9 * 3) / 8)));
  });

  it('honours a demand below line rate', () => {
    const [flow] = arDemoEmulator().startFlows({
      pattern: 'pairs',
      pairs: [['nodeA', 'nodeC']],
      demand: '50Gb/s',
    });
    expect(flow?.bytesPerSecond).toBeCloseTo(6.25e9, -3);
    expect(parseRate('x', '12.5GB/s')).toBe(12.5e9);
    expect(parseSize('x', '4K')).toBe(4096);
  });
});

describe('efficiency by transport and message size', () => {
  it('large RDMA messages: 99 % of line rate (seed 002: 12.38 of 12.5 GB/s)', () => {
    const [flow] = arDemoEmulator().startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] });
    expect(flow?.bytesPerSecond).toBe(12.375e9);
  });

  it('small messages are limited by 160 M messages/s per port: the curve of seeds 001/003', () => {
    const rate = (size: number) =>
      arDemoEmulator().startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], messageSize: size })[0]
        ?.bytesPerSecond as number;
    const sizes = [64, 256, 1024, 4096, 65536, 1 << 20];
    const curve = sizes.map((s) => rate(s) / 12.375e9);
    for (let i = 1; i < curve.length; i++) expect(curve[i]).toBeGreaterThan(curve[i - 1] as number);
    expect(curve[0]).toBeLessThan(0.5);
    expect(curve[3]).toBeGreaterThan(0.98); // line rate from about 4 KB
    expect(rate(64) / 64).toBeLessThanOrEqual(transport.RDMA_MESSAGE_RATE);
  });

  it('seed 000: iperf -P 16 through the router, 98.6 Gb/s to Ethernet and 96.9 Gb/s back', () => {
    const emulator = routerEmulator();
    const out = emulator.startFlows({ pattern: 'iperf', from: 'opa-node', to: 'eth-node', streams: 16 });
    expect(out).toHaveLength(16);
    expect(out[0]?.path).toEqual([
      'opa-node/1->opa-edge/1',
      'opa-edge/2->router/1',
      'router/2->eth-switch/1',
      'eth-switch/2->eth-node/1',
    ]);
    expect(gbps(sum(out))).toBeCloseTo(98.6, 6);
    expect(gbps(measuredRxRate(emulator, 'eth-node', 1, 10_000))).toBeCloseTo(98.6, 1);
    const router = emulator.hostLoads().find((h) => h.name === 'router');
    expect(router?.cpuUtilization).toBeGreaterThan(0.075);
    expect(router?.cpuUtilization).toBeLessThan(0.085);
    expect(router?.memoryUtilization).toBe(0.032);
    emulator.stopAllFlows();
    const back = emulator.startFlows({ pattern: 'iperf', from: 'eth-node', to: 'opa-node', streams: 16 });
    expect(gbps(sum(back))).toBeCloseTo(96.9, 6);
    expect(gbps(measuredRxRate(emulator, 'opa-node', 1, 10_000))).toBeCloseTo(96.9, 1);
  });

  it('one TCP stream is bounded by its core; RDMA cannot cross a router', () => {
    const emulator = routerEmulator();
    const [one] = emulator.startFlows({ pattern: 'iperf', from: 'opa-node', to: 'eth-node' });
    expect(gbps(one?.bytesPerSecond as number)).toBeCloseTo(30, 6);
    expect(() =>
      emulator.startFlows({ pattern: 'pairs', pairs: [['opa-node', 'eth-node']], transport: 'rdma' }),
    ).toThrow(/RDMA does not cross a router/);
  });
});

describe('seed 004: all-to-all on one 48-port switch', () => {
  it('keeps every host link at or below line rate and uses 32 of the 48 ports', () => {
    const emulator = singleSwitchEmulator();
    const flows = emulator.startFlows({ pattern: 'all-to-all' });
    expect(flows).toHaveLength(32 * 31);
    const before = emulator.portCounters();
    emulator.advance(1000);
    const after = emulator.portCounters();
    const switchPorts = after.ports.filter((p) => p.nodeName === 'switch1');
    let busy = 0;
    for (const port of switchPorts) {
      const sent =
        Number(
          counter(after, 'switch1', port.portNumber, 'XmitData') -
            counter(before, 'switch1', port.portNumber, 'XmitData'),
        ) * 8;
      const got =
        Number(
          counter(after, 'switch1', port.portNumber, 'RcvData') -
            counter(before, 'switch1', port.portNumber, 'RcvData'),
        ) * 8;
      expect(sent).toBeLessThanOrEqual(12.5e9);
      expect(got).toBeLessThanOrEqual(12.5e9);
      expect(sent / 12.5e9).toBeGreaterThan(0.98);
      if (sent > 0) busy++;
    }
    expect(busy).toBe(32);
    expect(emulator.fabric.nodeByName.get('switch1')?.portCount).toBe(48);
  });
});

describe('jobs', () => {
  it('flows carry the job named in the request, an item, or a generated one per request', () => {
    const emulator = arDemoEmulator();
    const seed = emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], job: 'seed' });
    const unnamed = emulator.startFlows({ pattern: 'shift', k: 1 });
    const mixed = emulator.startFlows({
      job: 'mix',
      items: [
        { pattern: 'pairs', pairs: [['nodeB', 'nodeD']] },
        { pattern: 'pairs', pairs: [['nodeD', 'nodeB']], job: 'own' },
      ],
    });
    const again = emulator.startFlows({ pattern: 'bisection' });
    expect(seed.map((f) => f.job)).toEqual(['seed']);
    expect(new Set(unnamed.map((f) => f.job))).toEqual(new Set(['shift-1']));
    expect(mixed.map((f) => f.job)).toEqual(['mix', 'own']);
    expect(new Set(again.map((f) => f.job))).toEqual(new Set(['bisection-2']));
    expect(emulator.listFlows().filter((f) => f.job === 'seed')).toHaveLength(1);
  });

  it('refuses job names that are empty, too long or hold control characters', () => {
    const emulator = arDemoEmulator();
    for (const job of ['', ' ', 'x'.repeat(129), 'a\nb', 7]) {
      expect(() =>
        emulator.startFlows({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']], job } as never),
      ).toThrow(/job must/);
    }
    expect(emulator.listFlows()).toEqual([]);
  });
});
