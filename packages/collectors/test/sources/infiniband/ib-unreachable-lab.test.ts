// The collector's own reads never raise alarms: while a whole switch is unlinked, the MADs it would send to
// the switch's (and its hosts') LIDs die in the fabric and count as PortRcvSwitchRelayErrors on the collector's
// attach link. Reachability (ib-reachability.ts) stops them until discovery finds the switch again.
import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { type Fabric, FabricBuilder, generatedGuid } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FabricSnapshot, PortSample } from '../../../src/fabric/port-sample.ts';
import { infinibandSource } from '../../../src/index.ts';
import { openIbPortReader } from '../../../src/sources/infiniband/ib-port-reader.ts';
import { pollUntil } from '../../helpers.ts';

// hostA (the collector's adapter: ibsim attaches clients to the first CA) on sw1; sw2 behind it with hostC.
function labFabric(): Fabric {
  const b = new FabricBuilder('lab', 'infiniband');
  b.addNode({ name: 'sw1', type: 'switch', guid: generatedGuid(1, 0), portCount: 8, tier: 1 });
  b.addNode({ name: 'sw2', type: 'switch', guid: generatedGuid(1, 1), portCount: 8, tier: 1 });
  for (const [i, name] of ['hostA', 'hostB', 'hostC'].entries()) {
    b.addNode({ name, type: 'host', guid: generatedGuid(0, i), portCount: 1 });
  }
  const edr = { widthSpeed: '4xEDR' };
  b.connect('hostA', 1, 'sw1', 1, 100, 'host', edr);
  b.connect('hostB', 1, 'sw1', 2, 100, 'host', edr);
  b.connect('hostC', 1, 'sw2', 1, 100, 'host', edr);
  b.connect('sw1', 5, 'sw2', 5, 100, 'isl', edr);
  // A host on two rails: each of its ports has a LID of its own.
  b.addNode({ name: 'hostD', type: 'host', guid: generatedGuid(0, 3), portCount: 2 });
  b.connect('hostD', 1, 'sw1', 3, 100, 'host', edr);
  b.connect('hostD', 2, 'sw2', 2, 100, 'host', edr);
  return b.build();
}

let lab: Lab;
beforeAll(async () => {
  lab = await startLab({
    net: ibsimNetFile(labFabric()),
    routing: 'minhop',
    sockName: `unreachable-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  });
}, 60_000);
afterAll(async () => {
  await lab?.stop();
});

const port = (s: FabricSnapshot, node: string, n: number) =>
  s.ports.find((p) => p.nodeName === node && p.portNumber === n) as PortSample;
/** PortRcvSwitchRelayErrors of the collector's attach link, at the switch: where its lost MADs count. */
const attachRelayErrors = (s: FabricSnapshot) => port(s, 'sw1', 1).errors?.receiveSwitchRelayErrors as number;

describe('the collector on a subnet with a switch unlinked', () => {
  it('sends no MADs to the unreachable switch: its attach link counts no relay errors; relinked it reads again', async () => {
    const source = infinibandSource({ fabric: 'lab', env: lab.env, cwd: lab.cwd });
    const signal = new AbortController().signal;
    const direct = openIbPortReader({ env: lab.env });
    try {
      const before = await source.read(signal);
      expect(Number.isFinite(port(before, 'sw2', 1).transmitBytes)).toBe(true);
      const sw2 = port(before, 'sw2', 1).lid;
      const hostC = port(before, 'hostC', 1).lid;
      const hostD2 = port(before, 'hostD', 2).lid;
      const start = attachRelayErrors(before);

      const unlinkedAt = Date.now();
      await lab.command('Unlink "sw2"');
      await lab.waitForLfts(unlinkedAt);
      let last = before;
      for (let i = 0; i < 20; i++) last = await source.read(signal);
      const whileGone = attachRelayErrors(last) - start;
      // Unknown while gone, never 0; down, not missing.
      for (const [node, n] of [
        ['sw2', 1],
        ['sw2', 5],
        ['hostC', 1],
      ] as const) {
        expect(port(last, node, n).transmitBytes).toBeNaN();
        expect(port(last, node, n).linkUp).toBe(false);
      }
      expect(last.targets?.find((t) => t.target === port(last, 'sw2', 1).nodeGuid)?.outcome).toBe('error');

      // What the collector did before: the same sweep sent to the unreachable LIDs, five times.
      const targets = [
        { lid: sw2, port: 1, switch: true },
        { lid: sw2, port: 5, switch: true },
        { lid: sw2, port: 2, switch: true },
        { lid: hostC, port: 1 },
        { lid: hostD2, port: 2 },
      ];
      for (let i = 0; i < 5; i++) await direct.read(targets);
      const control = attachRelayErrors(await source.read(signal));
      const byOldReads = control - start - whileGone;
      console.log(
        `relay errors on the attach link: ${whileGone} in 20 sweeps, ${byOldReads} in 5 old sweeps`,
      );
      // The first sweep after the unlink learns it (its MADs unanswered); none after that: at most one
      // old sweep's worth in 20 sweeps, where the old reads raised twenty.
      const perOldSweep = byOldReads / 5;
      expect(perOldSweep).toBeGreaterThanOrEqual(10);
      expect(whileGone).toBeLessThanOrEqual(perOldSweep);

      const relinkedAt = Date.now();
      await lab.link({ node: 'sw1', port: 5 }, { node: 'sw2', port: 5 });
      await lab.link({ node: 'sw2', port: 1 }, { node: 'hostC', port: 1 });
      await lab.link({ node: 'sw2', port: 2 }, { node: 'hostD', port: 2 });
      await lab.waitForLfts(relinkedAt);
      const relinked = [
        ['sw2', 1],
        ['sw2', 5],
        ['hostC', 1],
        ['hostD', 2],
      ] as const;
      // Every relinked port, not some: OpenSM brings them up one by one, slower on a loaded machine.
      last = await pollUntil(
        () => source.read(signal),
        (s) =>
          relinked.every(
            ([node, n]) => Number.isFinite(port(s, node, n).transmitBytes) && port(s, node, n).linkUp,
          ),
        80_000,
      );
      for (const [node, n] of relinked) {
        const p = port(last, node, n);
        expect(Number.isFinite(p.transmitBytes), `${node}/${n} read ${JSON.stringify(p)}`).toBe(true);
        expect(p.linkUp, `${node}/${n}`).toBe(true);
      }
      // While OpenSM programs the relinked LIDs' routes, sweeps may still lose MADs to them, as many as the machine's
      // load makes OpenSM slow; once they read, further sweeps lose none.
      const relinkedRelayErrors = attachRelayErrors(last);
      for (let i = 0; i < 5; i++) last = await source.read(signal);
      console.log(`relay errors in 5 sweeps once relinked: ${attachRelayErrors(last) - relinkedRelayErrors}`);
      expect(attachRelayErrors(last) - relinkedRelayErrors).toBe(0);
    } finally {
      await direct.close();
      await source.close();
    }
  }, 150_000);
});
