import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/index.ts';
import { counter } from '../helpers.ts';

const INCAST_TO = 'host33';
/** Eight senders on leaf1 and eight on leaf2, all to host33, the first host of leaf3. */
const SENDERS = [
  ...Array.from({ length: 8 }, (_, i) => `host${i + 1}`),
  ...Array.from({ length: 8 }, (_, i) => `host${i + 17}`),
];
/** host9 (leaf1) to host40 (leaf3): through a spine the incast paused, never through leaf3's port 1. */
const VICTIM: [string, string] = ['host9', 'host40'];
const FULL_EGRESS = 'leaf3/1->host33/1';

function leafSpine(): Emulator {
  const fabric = buildScenario('roce-leafspine');
  return createEmulator({ fabric, tables: fatTreeRouting(fabric), seed: 1 });
}

const port = (e: Emulator, node: string, n: number) => {
  const found = e.ethernetPortCounters().find((p) => p.nodeName === node && p.portNumber === n);
  if (!found) throw new Error(`no Ethernet port ${node}/${n}`);
  return found;
};

describe('an incast on the RoCE leaf–spine', () => {
  const alone = leafSpine();
  const [victimAlone] = alone.startFlows({ pattern: 'pairs', pairs: [VICTIM], job: 'victim' });
  const emulator = leafSpine();
  emulator.startFlows({ pattern: 'incast', to: INCAST_TO, from: SENDERS, job: 'incast' });
  const [victimStarted] = emulator.startFlows({ pattern: 'pairs', pairs: [VICTIM], job: 'victim' });
  emulator.advance(1000);
  const flows = emulator.listFlows();
  const victim = flows.find((f) => f.id === victimStarted?.id);
  const incast = flows.filter((f) => f.job === 'incast');

  it("slows the victim flow although its path avoids the incast's port, and names it", () => {
    expect(victim?.path).not.toContain(FULL_EGRESS);
    expect(victimAlone?.bytesPerSecond).toBeGreaterThan(45e9);
    // It moves at the incast flows' pace in the paused FIFO: a sixteenth of the egress, not the free ISL.
    expect(victim?.bytesPerSecond).toBeLessThan((victimAlone?.bytesPerSecond ?? 0) / 4);
    expect(victim?.victimOf).toBe(FULL_EGRESS);
    expect(victim?.ecnMarked).toBeUndefined();
    expect(incast.every((f) => f.victimOf === undefined && f.ecnMarked === true)).toBe(true);
  });

  it('ECN-marks at the full egress only, and pauses the ports upstream of it', () => {
    expect(port(emulator, 'leaf3', 1).ecnMarkedPackets).toBeGreaterThan(1_000_000n);
    const marking = emulator.ethernetPortCounters().filter((p) => p.ecnMarkedPackets > 0n);
    expect(marking.map((p) => `${p.nodeName}/${p.portNumber}`)).toEqual(['leaf3/1']);
    // The egress itself sends at line rate: not paused.
    expect(port(emulator, 'leaf3', 1).rxPauseMicroseconds).toBe(0n);
    // Each spine's port to leaf3 is paused by leaf3 (which counts the pause it sent), and so on to the hosts.
    for (let s = 1; s <= 4; s++) {
      expect(port(emulator, `spine${s}`, 3).rxPauseMicroseconds).toBeGreaterThan(100_000n);
      expect(port(emulator, 'leaf3', 16 + s).txPauseMicroseconds).toBe(
        port(emulator, `spine${s}`, 3).rxPauseMicroseconds,
      );
      expect(port(emulator, `spine${s}`, 3).rxPauseFrames).toBeGreaterThan(0n);
    }
    for (const host of [...SENDERS, VICTIM[0]])
      expect(port(emulator, host, 1).rxPauseMicroseconds).toBeGreaterThan(0n);
    // Nothing flows toward leaf4: its ports are never paused.
    expect(emulator.ethernetPortCounters().some((p) => p.nodeName === 'leaf4' && p.rxPauseFrames > 0n)).toBe(
      false,
    );
  });

  it("counts the pause as the Ethernet port's XmitWait (tx-wait), in byte times", () => {
    const doc = emulator.portCounters();
    const wait = counter(doc, 'spine1', 3, 'XmitWait');
    const micros = port(emulator, 'spine1', 3).rxPauseMicroseconds;
    // 400 GbE: 50e9 byte times per second.
    expect(Number(wait) / 50e9).toBeCloseTo(Number(micros) / 1e6, 5);
  });

  it('raises CNPs at the receiver and the marked senders, none at the victim', () => {
    const receiver = port(emulator, INCAST_TO, 1);
    expect(receiver.ecnMarkedReceived).toBeGreaterThan(1_000_000n);
    // One CNP per flow per 50 µs: 16 flows over one second.
    expect(receiver.cnpSent).toBe(16n * 20_000n);
    for (const host of SENDERS) expect(port(emulator, host, 1).cnpHandled).toBe(20_000n);
    expect(port(emulator, VICTIM[0], 1).cnpHandled).toBe(0n);
    expect(port(emulator, VICTIM[1], 1).cnpSent).toBe(0n);
  });

  it('pauses a DCQCN sender less than the unmarked victim, whose NIC offers its line rate', () => {
    const sender = port(emulator, 'host1', 1).rxPauseMicroseconds;
    const victimSender = port(emulator, VICTIM[0], 1).rxPauseMicroseconds;
    expect(sender).toBeLessThan(victimSender);
  });

  it('lets everything go once the incast stops', () => {
    const e = leafSpine();
    e.startFlows({ pattern: 'incast', to: INCAST_TO, from: SENDERS, job: 'incast' });
    e.advance(100);
    e.stopAllFlows();
    e.startFlows({ pattern: 'pairs', pairs: [VICTIM], job: 'victim' });
    const before = port(e, 'spine1', 3).rxPauseMicroseconds;
    e.advance(1000);
    expect(e.listFlows()[0]?.bytesPerSecond).toBe(victimAlone?.bytesPerSecond);
    expect(e.listFlows()[0]?.victimOf).toBeUndefined();
    expect(port(e, 'spine1', 3).rxPauseMicroseconds).toBe(before);
  });
});
