import { setImmediate as nextTurn } from 'node:timers/promises';
import { CATEGORY_NAMES, type CategoryName, type Severity } from '@fabscope/topology';
import type { LinkFrame } from '../lib/frame.ts';
import type { LinkIndex } from '../lib/link-index.ts';
import {
  ALARM_LEVELS,
  CLEAR_BELOW_SHARE,
  CLEAR_HOLD_MS,
  type LevelColumns,
  levelColumns,
  stepLevel,
} from './alarm-levels.ts';
import { type AlarmMember, type Alarms, SEVERITY_OF_LEVEL } from './alarms.ts';
import type { CollectionWatch } from './collection-watch.ts';
import type { EventLog, FabricEvent } from './event-log.ts';
import type { SaturatedCounters } from './saturation-reasons.ts';

/** Most events of one kind (per category, or gaps) written per tick; the rest are counted in one. */
export const EVENTS_PER_TICK = 10;

/** Below this fraction of threshold a direction with no level stays without one. */
const LOWEST_RAISE_AT = (ALARM_LEVELS[1] as (typeof ALARM_LEVELS)[number]).raiseAt;

interface Change {
  subject: string;
  value: number;
  event: FabricEvent;
}

/**
 * Watches every tick for what an administrator is alerted to and writes it to the event log: a PM category of a
 * direction crossing a severity (warning 1 ×, error 3 ×, critical 10 × its threshold.
 */
export class HealthWatch {
  /** Per category, the level (1 warning … 3 critical, 0 under) of each channel of `index`. */
  private levels: Map<CategoryName, LevelColumns>;
  /** Positions in the index's portList, and which ports had a fresh reading at the last tick. */
  private portAt: Map<string, number>;
  private answering: Uint8Array | null = null;
  /** Ports reported as no longer answering, until they answer again. */
  private readonly missing = new Set<string>();
  private readonly portNames = new Map<string, string>();

  constructor(
    private readonly log: EventLog,
    private index: LinkIndex,
    private readonly limit = EVENTS_PER_TICK,
    /** The alarms the directions over threshold make, grouped (absent: events only). */
    private readonly alarms?: Alarms,
    /** Whether the whole collection stopped: then its one `collection` event says so, not one per port. */
    private readonly collection?: Pick<CollectionWatch, 'stopped'>,
    /** The collectors' saturated counters: the reason a value is unknown, where one is (saturation-reasons.ts). */
    private readonly saturated?: Pick<SaturatedCounters, 'reasonFor'>,
  ) {
    this.levels = new Map(CATEGORY_NAMES.map((name) => [name, levelColumns(index.channels.length)]));
    this.portAt = positions(index);
    this.nameThePorts(index);
  }

  /** Watches another drawing of the fabric (a re-discovered one): its ports named too. */
  useIndex(index: LinkIndex): void {
    if (index === this.index) return;
    // The levels follow their directions by id into the new drawing's channels.
    const channelOf = new Map(index.channels.map((ch) => [ch.fixed.id, ch.index]));
    const moved = new Map<CategoryName, LevelColumns>();
    for (const [name, from] of this.levels) {
      const next = levelColumns(index.channels.length);
      from.levels.forEach((level, c) => {
        const to = level === 0 ? undefined : channelOf.get(this.index.channels[c]?.fixed.id ?? '');
        if (to === undefined) return;
        next.levels[to] = level;
        next.holdSince[to] = from.holdSince[c] as number;
        next.holdKeep[to] = from.holdKeep[c] as number;
      });
      moved.set(name, next);
    }
    this.levels = moved;
    // The flags of the last tick follow their port keys into the new order.
    const at = positions(index);
    const before = this.answering;
    if (before) {
      const flags = new Uint8Array(index.portList.length);
      this.index.portList.forEach((key, i) => {
        const to = before[i] === 1 ? at.get(key) : undefined;
        if (to !== undefined) flags[to] = 1;
      });
      this.answering = flags;
    }
    this.portAt = at;
    for (const [name, members] of this.members) {
      const next = new Map<number, AlarmMember>();
      for (const member of members.values()) {
        const to = channelOf.get(member.id);
        if (to !== undefined) next.set(to, member);
      }
      this.members.set(name, next);
    }
    this.index = index;
    this.nameThePorts(index);
  }

  private nameThePorts(index: LinkIndex): void {
    for (const ch of index.channels)
      this.portNames.set(ch.fromKey, `${ch.fixed.from.node}/${ch.fixed.from.port}`);
  }

  /** One tick: its frame (in this watch's index), with the ports the store has fresh readings of. */
  observe(timeMs: number, frame: LinkFrame): void {
    for (const step of this.steps(timeMs, frame)) step();
  }

  /**
   * `observe` with a turn of the event loop before each of its passes over the directions (six
   * categories, the ports answering, the alarms). Ticks must not overlap (the sampler awaits it).
   */
  async observeInTurns(timeMs: number, frame: LinkFrame): Promise<void> {
    for (const step of this.steps(timeMs, frame)) {
      await nextTurn();
      step();
    }
  }

  private steps(timeMs: number, frame: LinkFrame): (() => void)[] {
    return [
      () => {
        if (frame.index !== this.index) this.useIndex(frame.index);
      },
      ...CATEGORY_NAMES.map((name) => () => this.categoryEvents(timeMs, frame, name)),
      () => this.gapEvents(timeMs, frame),
      () => this.alarms?.update(timeMs, this.overThreshold()),
    ];
  }

  /**
   * Per category, every direction over its threshold now (by channel), for the grouped alarms
   * (alarms.ts): updated in place from tick to tick, made when a direction crosses.
   */
  private readonly members = new Map(CATEGORY_NAMES.map((name) => [name, new Map<number, AlarmMember>()]));

  private *overThreshold(): Iterable<AlarmMember> {
    for (const members of this.members.values()) yield* members.values();
  }

  private categoryEvents(timeMs: number, frame: LinkFrame, name: CategoryName): void {
    const rising: Change[] = [];
    const falling: Change[] = [];
    const values = frame.categories[name];
    const columns = this.levels.get(name) as LevelColumns;
    const levels = columns.levels;
    const members = this.members.get(name) as Map<number, AlarmMember>;
    for (let c = 0; c < values.length; c++) {
      const value = values[c] as number;
      const before = levels[c] as number;
      // Under the lowest level and under before: nothing to say.
      if (before === 0 && !(value >= LOWEST_RAISE_AT)) continue;
      if (Number.isNaN(value)) {
        // Unknown changes no level: the alarm keeps the direction and says since when it is unknown, and why.
        const member = members.get(c);
        if (member) {
          if (member.unknownSinceMs === null) {
            member.unknownSinceMs = timeMs;
            member.unknownReason = this.unknownReason(frame, c);
          }
          // A saturated counter says more; the collectors' family may come a tick after the value went.
          const saturated = this.collection?.stopped ? undefined : this.saturatedReason(c, name);
          if (saturated) member.unknownReason = saturated;
        }
        continue;
      }
      const now = stepLevel(columns, c, value, timeMs);
      const link = (this.index.channels[c] as LinkIndex['channels'][number]).fixed;
      if (now === 0) members.delete(c);
      else {
        const member = members.get(c);
        if (member === undefined)
          members.set(c, {
            id: link.id,
            kind: link.kind,
            category: name,
            level: now,
            value,
            unknownSinceMs: null,
          });
        else {
          member.level = now;
          member.value = value;
          member.unknownSinceMs = null;
          member.unknownReason = undefined;
        }
      }
      if (now === before) continue;
      const times = `${value.toFixed(2)} × threshold`;
      const rose = now > before;
      if (!rose && now !== 0) continue;
      (rose ? rising : falling).push({
        subject: link.id,
        value,
        event: {
          timeMs,
          kind: 'threshold',
          subject: link.id,
          severity: rose ? (SEVERITY_OF_LEVEL[now] as Severity) : 'info',
          detail: rose
            ? `${name} ${times}${before > 0 ? ` (was ${SEVERITY_OF_LEVEL[before]})` : ''}`
            : `${name} back under threshold (${times}, below ${CLEAR_BELOW_SHARE * 100} % of it for ${CLEAR_HOLD_MS / 1000} s)`,
        },
      });
    }
    this.write(rising, (n) => `${n} more link directions crossed the ${name} threshold`, 'warning', timeMs);
    this.write(falling, (n) => `${n} more link directions back under the ${name} threshold`, 'info', timeMs);
  }

  /** Members over a threshold whose value is unknown now (their reason may lie in the collectors' saturation). */
  unknownMembers(): number {
    let n = 0;
    for (const m of this.overThreshold()) if (m.unknownSinceMs !== null) n++;
    return n;
  }

  /** Why direction `c` of the frame is unknown, as far as the tick tells. */
  private unknownReason(frame: LinkFrame, c: number): string {
    if (this.collection?.stopped) return 'no data from the collection';
    const at = this.portAt.get((this.index.channels[c] as LinkIndex['channels'][number]).fromKey);
    if (at !== undefined && frame.portsRead[at] !== 1) return 'no fresh reading of its port';
    return 'its counters give no figure (saturated, reset or a step no link could carry)';
  }

  /** "XmitWait saturated since 12:04:10 — congestion unknown" where a counter of either end says so. */
  private saturatedReason(c: number, category: CategoryName): string | undefined {
    const channel = this.index.channels[c] as LinkIndex['channels'][number];
    return this.saturated?.reasonFor([channel.fromKey, channel.toKey], category);
  }

  private gapEvents(timeMs: number, frame: LinkFrame): void {
    const { portList: keys } = this.index;
    const at = this.portAt;
    // The frame is in this watch's index (the first step), its ports in index.portList's order.
    const now = frame.portsRead.slice();
    const before = this.answering;
    this.answering = now;
    if (before === null || this.collection?.stopped) return;
    const gap = (key: string, severity: FabricEvent['severity'], detail: string): Change => {
      const subject = this.portNames.get(key) ?? key;
      return { subject, value: 0, event: { timeMs, kind: 'collection-gap', subject, severity, detail } };
    };
    const gone: Change[] = [];
    const back: Change[] = [];
    for (let i = 0; i < keys.length; i++) {
      if (before[i] !== 1 || now[i] === 1) continue;
      const key = keys[i] as string;
      this.missing.add(key);
      gone.push(gap(key, 'warning', 'no fresh reading: the port or its collector target stopped answering'));
    }
    // Only a port reported missing comes back: one seen for the first time (the store starting
    // up, a port cabled since) is not an event; /summary counts the ports without data.
    for (const key of this.missing) {
      const i = at.get(key);
      if (i === undefined || now[i] !== 1) continue;
      this.missing.delete(key);
      back.push(gap(key, 'info', 'readings again'));
    }
    this.write(gone, (n) => `${n} more ports stopped answering`, 'warning', timeMs, 'collection-gap');
    this.write(back, (n) => `${n} more ports answer again`, 'info', timeMs, 'collection-gap');
  }

  /** The worst `limit` changes as events, and the rest summed up in one. */
  private write(
    changes: Change[],
    more: (n: number) => string,
    severity: FabricEvent['severity'],
    timeMs: number,
    kind: FabricEvent['kind'] = 'threshold',
  ): void {
    changes.sort((a, b) => b.value - a.value || (a.subject < b.subject ? -1 : 1));
    for (const change of changes.slice(0, this.limit)) this.log.append(change.event);
    const rest = changes.length - this.limit;
    if (rest > 0) this.log.append({ timeMs, kind, subject: 'fabric', severity, detail: more(rest) });
  }
}

function positions(index: LinkIndex): Map<string, number> {
  return new Map(index.portList.map((key, i) => [key, i]));
}
