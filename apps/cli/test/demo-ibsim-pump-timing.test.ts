import { createEmulator, type Emulator } from '@fabscope/emulator';
import type { Lab } from '@fabscope/lab';
import { buildForwardingTables, FabricBuilder, generatedGuid } from '@fabscope/topology';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LabPump, startLabPump } from '../src/demo/lab-pump.ts';

const EDR_BYTES_PER_SECOND = 12.5e9;
/** ibsim's console line for a counter, as lab-pump.ts writes it. */
const SET = /^PerformanceSet ("[^"]+"\[\d+\]) (\S+)=(\d+)$/;
/** The direction the test watches: h1 sends to h2 at full rate, so the switch transmits to h2 at the data rate. */
const INTO_H2 = '"sw"[2] PortCountersExtended.PortXmitData';
const OUT_OF_H1 = '"h1"[1] PortCountersExtended.PortXmitData';

/** One switch, three EDR hosts, h1 → h2 at full rate; its clock moved by the test alone. */
function fullRateEmulator(): Emulator {
  const b = new FabricBuilder('edr', 'infiniband');
  b.addNode({ name: 'sw', type: 'switch', guid: generatedGuid(1, 0), portCount: 4, tier: 1 });
  for (let i = 1; i <= 3; i++) {
    b.addNode({ name: `h${i}`, type: 'host', guid: generatedGuid(0, i), portCount: 1 });
    b.connect(`h${i}`, 1, 'sw', i, 100, 'host', { widthSpeed: '4xEDR' });
  }
  const fabric = b.build();
  const emulator = createEmulator({
    fabric,
    tables: buildForwardingTables(fabric, 'minhop'),
    externalRouting: true,
  });
  emulator.startFlows({ pattern: 'pairs', pairs: [['h1', 'h2']] });
  return emulator;
}

/** The emulator's counters at each instant the pump took them: what a read stamped with that instant must see. */
function recordTruth(emulator: Emulator): Map<number, Map<string, bigint>> {
  const truth = new Map<number, Map<string, bigint>>();
  const portCounters = emulator.portCounters.bind(emulator);
  emulator.portCounters = () => {
    const doc = portCounters();
    const at = new Map<string, bigint>();
    for (const p of doc.ports) {
      const counters = p.counters as unknown as Record<string, string>;
      at.set(
        `"${p.nodeName}"[${p.portNumber}] PortCountersExtended.PortXmitData`,
        BigInt(counters.XmitData ?? 0),
      );
    }
    truth.set(doc.timeMs, at);
    return doc;
  };
  return truth;
}

/** ibsim's console as a map of counters; each line lands at a step the scheduler picks (a loaded ibsim lags). */
function laggingIbsim(s: fc.Scheduler, subnet: Map<string, bigint>): Lab {
  return {
    async command(...lines: string[]) {
      for (const line of lines) {
        await s.schedule(Promise.resolve(), `ibsim applies ${line}`);
        const m = SET.exec(line);
        if (m) subnet.set(`${m[1]} ${m[2]}`, BigInt(m[3] as string));
      }
      return lines.map(() => '');
    },
  } as unknown as Lab;
}

/** A sweep by MAD: one port's answer at a time, each at a step the scheduler picks, so writes may fall between. */
async function sweep(s: fc.Scheduler, subnet: Map<string, bigint>): Promise<Map<string, bigint>> {
  const read = new Map<string, bigint>();
  for (const key of [OUT_OF_H1, INTO_H2]) {
    await s.schedule(Promise.resolve(), `answer ${key}`);
    read.set(key, subnet.get(key) ?? -1n);
  }
  return read;
}

type Step = { kind: 'read' } | { kind: 'write' } | { kind: 'advance'; ms: number };

/** What happens, in order, each followed by a number of steps of the lagging subnet before the next begins. */
const plans = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constant<Step>({ kind: 'read' }),
      fc.constant<Step>({ kind: 'write' }),
      fc.integer({ min: 1, max: 300 }).map((ms): Step => ({ kind: 'advance', ms })),
    ),
    fc.nat({ max: 6 }),
  ),
  { minLength: 3, maxLength: 14 },
);

describe('the lab pump under a lagging ibsim and overlapping sweeps', () => {
  it('gives every read the counters of the emulator instant it stamps, so no rate tops the data rate', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), plans, async (s, plan) => {
        const emulator = fullRateEmulator();
        const truth = recordTruth(emulator);
        const subnet = new Map<string, bigint>();
        // The timer never fires here: the plan's writes stand for it, at steps the scheduler picks.
        const pump: LabPump = startLabPump(emulator, laggingIbsim(s, subnet), 1e9);
        try {
          await s.waitFor(pump.flush());
          const reads: Promise<{ value: Map<string, bigint>; atMs: number }>[] = [];
          const others: Promise<unknown>[] = [];
          for (const [step, stepsAfter] of plan) {
            if (step.kind === 'read') reads.push(pump.readAtFlush(() => sweep(s, subnet)));
            else if (step.kind === 'write') others.push(pump.flush());
            else emulator.advance(step.ms);
            for (let k = 0; k < stepsAfter; k++) {
              // Lets the released step's continuation schedule its next one.
              await new Promise((resolve) => setImmediate(resolve));
              if (s.count() === 0) break;
              await s.waitOne();
            }
          }
          await s.waitFor(Promise.all([...reads, ...others]));
          const done = await Promise.all(reads);
          if (process.env.DBG)
            console.log(
              s
                .report()
                .map((r) => r.label)
                .join(' | '),
              done.map((d) => d.atMs),
            );
          for (const { value, atMs } of done) {
            for (const [key, counter] of value)
              expect(counter, `${key} read at ${atMs}`).toBe(truth.get(atMs)?.get(key));
          }
          // What the collector makes of them: Δcounter/Δt between reads in stamp order, never above the data rate.
          const ordered = [...done].sort((a, b) => a.atMs - b.atMs);
          for (let i = 1; i < ordered.length; i++) {
            const [a, b] = [ordered[i - 1], ordered[i]] as [(typeof done)[0], (typeof done)[0]];
            if (b.atMs === a.atMs) continue;
            const words = Number((b.value.get(INTO_H2) as bigint) - (a.value.get(INTO_H2) as bigint));
            expect((4 * words) / ((b.atMs - a.atMs) / 1000)).toBeLessThanOrEqual(EDR_BYTES_PER_SECOND);
          }
        } finally {
          pump.stop();
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('the lab pump after a write ibsim refused', () => {
  it('sends every counter again, as some lines of the refused batch may not have landed', async () => {
    const emulator = fullRateEmulator();
    const batches: string[][] = [];
    let refuse = true;
    const lab = {
      async command(...lines: string[]) {
        batches.push(lines);
        if (refuse) {
          refuse = false;
          throw new Error('ibsim refused');
        }
        return lines.map(() => '');
      },
    } as unknown as Lab;
    const pump = startLabPump(emulator, lab, 1e9);
    try {
      await expect(pump.flush()).rejects.toThrow('ibsim refused');
      await pump.flush();
      // Nothing changed in the emulator between the two: the second batch is the whole first one again.
      expect(batches[1]).toEqual(batches[0]);
      await expect(pump.readAtFlush(async () => 'read')).resolves.toEqual({ value: 'read', atMs: 0 });
    } finally {
      pump.stop();
    }
  });
});
