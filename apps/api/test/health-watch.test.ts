import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LinkDirectionState } from '@fabscope/contracts';
import { buildScenario } from '@fabscope/topology';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../src/config.ts';
import { Alarms } from '../src/events/alarms.ts';
import { type FabricEvent, MemoryEventLog } from '../src/events/event-log.ts';
import { HealthWatch } from '../src/events/health-watch.ts';
import { explainLinkStates } from '../src/events/link-state-reasons.ts';
import type { LinkFrame } from '../src/lib/frame.ts';
import { UNKNOWN_CATEGORIES, UNKNOWN_ERRORS } from '../src/lib/link-errors.ts';
import { LinkIndex } from '../src/lib/link-index.ts';
import { emptyPortRates, type PortRates, portKey } from '../src/lib/port-rates.ts';
import { directionState, frameFromStates, linkDirectionStates } from './oracles/object-path.ts';

const fabric = buildScenario('ar-demo');
const index = new LinkIndex(fabric);
const allPorts = new Map([...index.portKeys].map((k) => [k, emptyPortRates()]));

/**
 * Every direction of ar-demo, with `integrity` set on the ones named, as a tick's frame (of `of`)
 * with fresh readings of the ports in `ports`.
 */
function links(
  integrity: Record<string, number | null>,
  of: LinkIndex = index,
  ports: ReadonlyMap<string, PortRates> = allPorts,
): LinkFrame {
  const states: LinkDirectionState[] = of.channels.map(({ fixed }) =>
    directionState(fixed, {
      bytesPerSecond: 0,
      packetsPerSecond: 0,
      transmitWaitTicksPerSecond: 0,
      transmitWaitFraction: 0,
      linkUp: true,
      errors: UNKNOWN_ERRORS,
      categories: {
        ...UNKNOWN_CATEGORIES,
        integrity: fixed.id in integrity ? (integrity[fixed.id] as number | null) : 0,
      },
    }),
  );
  return frameFromStates(of, states, 0, ports);
}

describe('HealthWatch: thresholds crossed and collection gaps into the event log', () => {
  it('writes one event per rise in severity and one when the value falls back under; unknown changes nothing', () => {
    const log = new MemoryEventLog();
    const watch = new HealthWatch(log, index);
    const d = 'edge1/4->core2/1';
    for (const [t, value] of [
      [1, 0.5],
      [2, 1.2],
      [3, 1.5],
      [4, 4],
      [5, null],
      [6, 12],
      // Below the clear level (80 % of the threshold) from 7 on: lowered after the hold time (10 s).
      [7, 0.2],
      [5000, 0.5],
      [10_006, 0.3],
      [10_007, 0.3],
    ] as const)
      watch.observe(t, links({ [d]: value }));
    expect(log.list(0, 20_000).map((e) => [e.timeMs, e.severity, e.detail])).toEqual([
      [2, 'warning', 'integrity 1.20 × threshold'],
      [4, 'error', 'integrity 4.00 × threshold (was warning)'],
      [6, 'critical', 'integrity 12.00 × threshold (was error)'],
      [10_007, 'info', 'integrity back under threshold (0.30 × threshold, below 80 % of it for 10 s)'],
    ]);
  });

  it('at most the limit per category per tick, worst first, the rest in one fabric event', () => {
    const log = new MemoryEventLog();
    const watch = new HealthWatch(log, index, 2);
    const ids = index.channels.map((c) => c.fixed.id);
    watch.observe(1, links(Object.fromEntries(ids.map((id, i) => [id, 1 + i]))));
    const events = log.list(0, 10);
    expect(events).toHaveLength(3);
    expect(events[0]?.subject).toBe(ids[ids.length - 1]);
    expect(events[2]).toMatchObject({
      subject: 'fabric',
      detail: `${ids.length - 2} more link directions crossed the integrity threshold`,
    });
  });

  it('follows its directions into another drawing: levels and alarm members by id, not by channel', () => {
    const log = new MemoryEventLog();
    const alarms = new Alarms(log);
    const watch = new HealthWatch(log, index, undefined, alarms);
    // The same cables in another channel order (a drawing whose channels moved).
    const moved = new LinkIndex({ ...fabric, links: [...fabric.links].reverse() });
    const d = 'edge1/4->core2/1';
    expect(moved.channels.findIndex((c) => c.fixed.id === d)).not.toBe(
      index.channels.findIndex((c) => c.fixed.id === d),
    );
    watch.observe(1, links({ [d]: 1.5 }));
    expect(alarms.list(false)[0]?.members.map((m) => m.id)).toEqual([d]);
    // In the new drawing it is still over: no new event, the same single member.
    watch.observe(2, links({ [d]: 1.6 }, moved));
    expect(alarms.list(false)[0]?.members).toEqual([{ id: d, value: 1.6, severity: 'warning' }]);
    watch.observe(3, links({ [d]: 0.2 }, moved));
    watch.observe(10_003, links({ [d]: 0.2 }, moved));
    expect(
      log
        .list(0, 20_000)
        .filter((e) => e.kind === 'threshold')
        .map((e) => [e.timeMs, e.subject, e.severity]),
    ).toEqual([
      [1, d, 'warning'],
      [10_003, d, 'info'],
    ]);
    expect(alarms.list(false)).toEqual([]);
  });

  it('ports that stop answering and answer again are collection gaps', () => {
    const log = new MemoryEventLog();
    const watch = new HealthWatch(log, index);
    const edge1 = fabric.nodeByName.get('edge1')?.guid as string;
    const without = new Map(allPorts);
    without.delete(portKey(edge1, 4));
    // Ports seen for the first time (the store starting up) are not an event.
    watch.observe(0, links({}, index, new Map()));
    watch.observe(1, links({}));
    watch.observe(2, links({}, index, without));
    watch.observe(3, links({}));
    expect(log.list(0, 10).map((e) => [e.kind, e.subject, e.severity])).toEqual([
      ['collection-gap', 'edge1/4', 'warning'],
      ['collection-gap', 'edge1/4', 'info'],
    ]);
  });

  it('says the same in turns of the loop as at once (the sampler awaits the turns)', async () => {
    const ids = index.channels.map((c) => c.fixed.id);
    const edge1 = fabric.nodeByName.get('edge1')?.guid as string;
    const without = new Map(allPorts);
    without.delete(portKey(edge1, 4));
    const ticks: LinkFrame[] = [
      links({}),
      links({ [ids[0] as string]: 1.5, [ids[3] as string]: 3 }),
      links({ [ids[0] as string]: 0.2 }, index, without),
      links({}),
    ];
    const atOnce = new MemoryEventLog();
    const inTurns = new MemoryEventLog();
    const watch = new HealthWatch(atOnce, index, undefined, new Alarms(atOnce));
    const turning = new HealthWatch(inTurns, index, undefined, new Alarms(inTurns));
    for (const [t, frame] of ticks.entries()) {
      watch.observe(t, frame);
      await turning.observeInTurns(t, frame);
    }
    expect(inTurns.list(0, 100).length).toBeGreaterThan(3);
    expect(inTurns.list(0, 100)).toEqual(atOnce.list(0, 100));
  });

  it('follows the ports answering into another drawing: a gap across it, none for the move itself', () => {
    const log = new MemoryEventLog();
    const watch = new HealthWatch(log, index);
    // Another drawing of the same cables, its ports in another order.
    const moved = new LinkIndex({ ...fabric, links: [...fabric.links].reverse() });
    expect([...moved.portKeys]).not.toEqual([...index.portKeys]);
    const edge1 = fabric.nodeByName.get('edge1')?.guid as string;
    const without = new Map(allPorts);
    without.delete(portKey(edge1, 4));
    watch.observe(1, links({}));
    watch.observe(2, links({}, moved));
    expect(log.list(0, 10)).toEqual([]);
    watch.observe(3, links({}, moved, without));
    watch.observe(4, links({}));
    expect(log.list(0, 10).map((e) => [e.timeMs, e.subject, e.severity])).toEqual([
      [3, 'edge1/4', 'warning'],
      [4, 'edge1/4', 'info'],
    ]);
  });
});

describe('FABSCOPE_PM_THRESHOLDS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-pm-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads opafm's XML; the link index computes categories with it", () => {
    const file = join(dir, 'opafm.xml');
    writeFileSync(
      file,
      '<Config><Common><Pm><Thresholds><Security>1</Security></Thresholds></Pm></Common></Config>\n',
    );
    const config = configFromEnv({ FABSCOPE_PM_THRESHOLDS: file });
    expect(config.pmThresholds?.thresholds.Security).toBe(1);
    const custom = new LinkIndex(fabric, config.pmThresholds);
    const edge1 = fabric.nodeByName.get('edge1')?.guid as string;
    const rates = { ...emptyPortRates(), errors: { receiveConstraintErrors: 2 } };
    const snapshot = {
      timeMs: 0,
      ok: true,
      lastSampleAgeSeconds: 0,
      ports: new Map([[portKey(edge1, 4), rates]]),
    };
    const into = (i: LinkIndex) => linkDirectionStates(i, snapshot).find((l) => l.id === 'core2/1->edge1/4');
    expect(into(custom)?.categories.security).toBe(2); // 2/s against 1
    expect(into(index)?.categories.security).toBe(0.2); // against opafm's 10
  });

  it('a file that is missing or not in the vocabulary is a ConfigError naming it', () => {
    expect(() => configFromEnv({ FABSCOPE_PM_THRESHOLDS: join(dir, 'none.xml') })).toThrow(ConfigError);
    const bad = join(dir, 'bad.xml');
    writeFileSync(bad, '<Pm><Thresholds><Integrety>5</Integrety></Thresholds></Pm>\n');
    expect(() => configFromEnv({ FABSCOPE_PM_THRESHOLDS: bad })).toThrow(
      /bad\.xml.*unknown element <Integrety>/,
    );
  });
});

describe('link state events: the reason where fabscope knows it', () => {
  it('a fault through the API in the minute before explains it; otherwise the reason is unknown', () => {
    const link = 'edge1/4--core2/1';
    const events: FabricEvent[] = [
      { timeMs: 1000, kind: 'fault', subject: link, detail: 'link-down' },
      { timeMs: 3000, kind: 'link-state', subject: link, detail: 'link down' },
      { timeMs: 5000, kind: 'fault', subject: 'core2', detail: 'switch-up' },
      { timeMs: 6000, kind: 'link-state', subject: link, detail: 'link up' },
      { timeMs: 200_000, kind: 'link-state', subject: link, detail: 'link down' },
    ];
    expect(explainLinkStates(events).filter((e) => e.kind === 'link-state')).toEqual([
      {
        timeMs: 3000,
        kind: 'link-state',
        subject: link,
        detail: 'link down (link-down through fabscope)',
        severity: 'error',
      },
      {
        timeMs: 6000,
        kind: 'link-state',
        subject: link,
        detail: 'link up (switch-up through fabscope)',
        severity: 'info',
      },
      {
        timeMs: 200_000,
        kind: 'link-state',
        subject: link,
        detail: 'link down (not caused through fabscope)',
        severity: 'error',
      },
    ]);
  });
});
