import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EdgeRates } from '../../../src/fabric/edge-rates.ts';
import { agentRestarted, snmpSource } from '../../../src/sources/snmp/snmp-source.ts';
import { parseSnmpTargets } from '../../../src/sources/snmp/snmp-targets.ts';
import { agentAnswer } from './answers.ts';

/** What happens to the agent before a sweep: traffic, a counter set back, a restart, or no answer. */
type Step =
  | { kind: 'traffic'; bytes: bigint }
  | { kind: 'counter-back'; by: bigint }
  | { kind: 'restart'; counter: bigint }
  | { kind: 'silent' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.bigInt({ min: 0n, max: 1n << 36n }).map((bytes) => ({ kind: 'traffic', bytes }) as Step),
  },
  {
    weight: 1,
    arbitrary: fc.bigInt({ min: 1n, max: 1n << 20n }).map((by) => ({ kind: 'counter-back', by }) as Step),
  },
  // After a restart the counter may even stand above its old value: only sysUpTime tells.
  {
    weight: 1,
    arbitrary: fc
      .bigInt({ min: 0n, max: 1n << 50n })
      .map((counter) => ({ kind: 'restart', counter }) as Step),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'silent' } as Step) },
);

const SWEEP_MS = 10_000;

describe('SNMP counters into rates', () => {
  it('gives the exact rate between consecutive answers of one agent run, a gap across anything else', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 1n << 50n }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        async (start, steps) => {
          let counter = start;
          let ticks = 1_000_000;
          let current: Step | null = null;
          let clockMs = 0;
          const source = snmpSource({
            targets: parseSnmpTargets('leaf1 v2c public'),
            now: () => clockMs,
            walkAgent: async () => {
              if (current?.kind === 'silent') throw new Error('Request timed out');
              return agentAnswer({
                sysName: 'leaf1',
                upTimeTicks: ticks,
                interfaces: [
                  {
                    ifIndex: 1,
                    name: 'Ethernet1',
                    speedMbps: 400_000,
                    outOctets: counter,
                    inOctets: counter,
                  },
                ],
              });
            },
          });
          const rates = new EdgeRates();
          await source.read(AbortSignal.timeout(1000));
          rates.update(await source.read(AbortSignal.timeout(1000)), 0);
          let previousCounter: bigint | null = counter;
          for (const [k, s] of steps.entries()) {
            current = s;
            // A restarted agent's sysUpTime is below its last answer's: it counts from the restart.
            ticks = s.kind === 'restart' ? Math.floor(ticks / 2) : ticks + SWEEP_MS / 10;
            if (s.kind === 'traffic') counter += s.bytes;
            if (s.kind === 'counter-back') counter = counter >= s.by ? counter - s.by : 0n;
            if (s.kind === 'restart') counter = s.counter;
            clockMs = (k + 1) * SWEEP_MS;
            const snapshot = await source.read(AbortSignal.timeout(1000));
            const sweep = rates.update(snapshot, (k + 1) * SWEEP_MS);
            const answered = s.kind === 'traffic' || s.kind === 'counter-back';
            expect(snapshot.ports.length).toBe(answered ? 1 : 0);
            expect(snapshot.targets?.[0]?.outcome).toBe(answered ? 'ok' : 'error');
            const rate = sweep.rates[0]?.transmitBytesPerSecond ?? null;
            const continuous = answered && previousCounter !== null && counter >= previousCounter;
            const expected = continuous
              ? Number(counter - (previousCounter as bigint)) / (SWEEP_MS / 1000)
              : null;
            if (answered) expect(rate).toBe(expected);
            previousCounter = answered ? counter : null;
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("stamps each agent's ports with its own walk, so an agent walked late is rated over its own interval", async () => {
    let clockMs = 0;
    // The first sweep's walk of leaf2 takes 4 s, its counters read half way; 1 GB/s on both all along.
    const halfWalkMs = new Map([['leaf2', 2000]]);
    const source = snmpSource({
      targets: parseSnmpTargets('leaf1 v2c public\nleaf2 v2c public'),
      concurrency: 1,
      now: () => clockMs,
      walkAgent: async (target) => {
        const name = target.label.split(':')[0] as string;
        clockMs += halfWalkMs.get(name) ?? 0;
        const bytes = BigInt(clockMs) * 1_000_000n;
        clockMs += halfWalkMs.get(name) ?? 0;
        return agentAnswer({
          sysName: name,
          upTimeTicks: 1000 + clockMs / 10,
          interfaces: [
            { ifIndex: 1, name: 'Ethernet1', speedMbps: 400_000, outOctets: bytes, inOctets: bytes },
          ],
        });
      },
    });
    const rates = new EdgeRates();
    const first = await source.read(AbortSignal.timeout(1000));
    expect(first.ports.map((p) => [p.nodeName, p.countersReadAtMs])).toEqual([
      ['leaf1', 0],
      ['leaf2', 2000],
    ]);
    rates.update(first, 2000);
    clockMs = 10_000;
    halfWalkMs.clear();
    const sweep = rates.update(await source.read(AbortSignal.timeout(1000)), 10_000);
    // Stamped at the sweep's instant (2 s) alone, leaf1 would read 10 GB over 8 s (1.25 GB/s).
    expect(sweep.rates.map((r) => r?.transmitBytesPerSecond)).toEqual([1e9, 1e9]);
  });

  it('calls an agent restarted only when sysUpTime went back', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (before, now) => {
        expect(agentRestarted(before, now)).toBe(now < before);
        expect(agentRestarted(undefined, now)).toBe(false);
      }),
    );
  });
});
