import {
  createFabricRegistry,
  emulatorSource,
  type FabricSource,
  type MetricsServer,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, type EmulatorServer, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Alarms } from '../src/events/alarms.ts';
import { MemoryEventLog } from '../src/events/event-log.ts';
import { HealthWatch } from '../src/events/health-watch.ts';
import { SaturatedCounters, saturationReason } from '../src/events/saturation-reasons.ts';
import { emptyFrame, type LinkFrame } from '../src/lib/frame.ts';
import { LinkIndex } from '../src/lib/link-index.ts';

// A saturated counter counts no more: the collector exports since when (fabscope_port_counter_saturated_since_seconds)
// and the alarm it leaves without a value says so, "XmitWait saturated since 12:04:10 — congestion unknown".
const fabric = buildScenario('ar-demo');
const index = new LinkIndex(fabric);
const DIRECTION = 'edge1/4->core2/1';
const channel = index.channelById.get(DIRECTION) as LinkIndex['channels'][number];
const SINCE = Date.UTC(2026, 10, 29, 12, 4, 10);

describe('the reason an alarm gives for a saturated counter', () => {
  it('names the earliest saturated counter of the category, and none of another', () => {
    const fields = new Map([
      ['linkDowned', SINCE - 5000],
      ['transmitWait', SINCE],
      ['congestionDiscards', SINCE + 1000],
    ]);
    expect(saturationReason(fields, 'congestion')).toBe(
      'XmitWait saturated since 12:04:10 — congestion unknown',
    );
    expect(saturationReason(fields, 'integrity')).toBe(
      'LinkDownedCounter saturated since 12:04:05 — integrity unknown',
    );
    expect(saturationReason(fields, 'routing')).toBeUndefined();
    expect(saturationReason(undefined, 'congestion')).toBeUndefined();
  });

  it('an alarm whose congestion goes unknown keeps the saturated counter as its reason, and stays raised', () => {
    const log = new MemoryEventLog();
    const alarms = new Alarms(log);
    const saturated = {
      reasonFor: (keys: readonly string[], category: 'congestion' | string) =>
        keys.includes(channel.fromKey) && category === 'congestion'
          ? 'XmitWait saturated since 12:04:10 — congestion unknown'
          : undefined,
    };
    const watch = new HealthWatch(log, index, undefined, alarms, undefined, saturated);
    const frameOf = (timeMs: number, value: number): LinkFrame => {
      const frame = emptyFrame(index, timeMs, 0, new Map());
      for (const values of Object.values(frame.categories)) values.fill(Number.NaN);
      frame.categories.congestion[channel.index] = value;
      frame.portsRead.fill(1);
      return frame;
    };
    watch.observe(1000, frameOf(1000, 3.5));
    expect(watch.unknownMembers()).toBe(0);
    for (let t = 2000; t <= 30_000; t += 1000) watch.observe(t, frameOf(t, Number.NaN));
    expect(watch.unknownMembers()).toBe(1);
    const [alarm] = alarms.list(false);
    expect(alarm?.unknown).toEqual({
      count: 1,
      sinceMs: 2000,
      reason: 'XmitWait saturated since 12:04:10 — congestion unknown',
    });
    expect(alarm?.members[0]).toMatchObject({
      id: DIRECTION,
      unknownReason: 'XmitWait saturated since 12:04:10 — congestion unknown',
    });
    expect(log.list(0, 30_000).some((e) => e.detail.startsWith('alarm cleared'))).toBe(false);
  });
});

describe('the saturated counters read from a fabscope collector', () => {
  let emulator: EmulatorServer;
  let collector: MetricsServer;
  beforeAll(async () => {
    emulator = await startEmulatorServer(
      createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: Date.now() }),
      { tickMs: 20, fromDateNow: true },
    );
    // The emulator's ports, edge1's port 4 with its XmitWait saturated (as the InfiniBand ledger marks it).
    const inner = emulatorSource(emulator.url);
    const source: FabricSource = {
      name: inner.name,
      async read(signal) {
        const snapshot = await inner.read(signal);
        for (const p of snapshot.ports) {
          if (p.nodeName === 'edge1' && p.portNumber === 4) p.saturatedSinceMs = { transmitWait: SINCE };
        }
        return snapshot;
      },
    };
    collector = await startMetricsServer(createFabricRegistry({ source }).scrapeChunks);
  });
  afterAll(async () => {
    await collector?.close();
    await emulator?.close();
  });

  it('gives the congestion reason for the direction that port sends, and nothing for another', async () => {
    const counters = new SaturatedCounters([collector.url]);
    await vi.waitFor(
      async () => {
        await counters.refresh();
        expect(counters.reasonFor([channel.fromKey, channel.toKey], 'congestion')).toBe(
          'XmitWait saturated since 12:04:10 — congestion unknown',
        );
      },
      { timeout: 10_000, interval: 200 },
    );
    const other = index.channelById.get('core2/1->edge1/4') as LinkIndex['channels'][number];
    expect(counters.reasonFor([other.toKey], 'integrity')).toBeUndefined();
    const elsewhere = index.channels.find(
      (ch) => ch.fromKey !== channel.fromKey && ch.toKey !== channel.fromKey,
    );
    expect(counters.reasonFor([elsewhere?.fromKey as string], 'congestion')).toBeUndefined();
  });

  it('keeps nothing from a collector that does not answer', async () => {
    const counters = new SaturatedCounters(['http://127.0.0.1:9/metrics']);
    await counters.refresh();
    expect(counters.reasonFor([channel.fromKey], 'congestion')).toBeUndefined();
  });
});
