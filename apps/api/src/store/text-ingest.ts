import { ExpositionScanner } from './exposition-stream.ts';
import type { PortReadings } from './port-readings.ts';
import {
  COUNTER_SEEN,
  FIELD_COUNT,
  instanceOf,
  LINK_UP,
  NO_PORT,
  RATE,
  READ_AT,
  type ScrapeRoles,
  STAGED,
  TargetState,
  UNRESOLVED,
  WAIT_TICK,
} from './scrape-staging.ts';
import { linkUpOf, type SeriesMapping, type SeriesSample } from './series-mapping.ts';

/** A target's text answer read, waiting to be committed. */
export interface ScannedText {
  samples: number;
  /** The newest sample timestamp in the answer (when the collector read its counters), or null. */
  latestTimestampMs: number | null;
  /**
   * Lands the staged values in the ports' readings, stamped `timeMs` (the answer's newest timestamp as
   * taken); a port whose counters carry their own timestamp is stamped that much earlier.
   */
  commit(timeMs: number): void;
}

/**
 * Exporters' text exposition → the ports' readings: parsed as it streams in, only the families the
 * mapping reads, each label set parsed and resolved to a port once per target.
 */
export class TextIngest {
  private readonly targets: TargetState[];

  constructor(
    targets: readonly string[],
    private readonly readings: PortReadings,
    private readonly roles: ScrapeRoles,
    private readonly mapping: SeriesMapping,
    /** Called with each port whose counters went backwards. */
    private readonly onReset: (key: string) => void,
  ) {
    this.targets = targets.map((t) => new TargetState(instanceOf(t)));
  }

  /** Reads one target's answer, staging its samples per label block. */
  async read(target: number, body: AsyncIterable<Uint8Array> | null): Promise<ScannedText> {
    const state = this.targets[target] as TargetState;
    state.token = this.readings.nextToken();
    state.touched = [];
    const join: SeriesSample[] = [];
    const { roles, joins } = this.roles;
    const mapping = this.mapping;
    let samples = 0;
    const scanner: ExpositionScanner = new ExpositionScanner(
      this.roles.names,
      (metric, b, value, line) => {
        samples++;
        const name = scanner.nameOf(metric);
        state.known(b, name, line);
        if (joins[metric] === 1)
          join.push({ name, labels: state.labels[b] as Record<string, string>, instance: state.instance });
        const role = roles[metric] as number;
        if (role < 0) return;
        const at = state.stage(b) + role;
        const staged = state.value;
        if (role < FIELD_COUNT) {
          // The first series of a port's counter wins (an InfiniBand port over an interface).
          staged[COUNTER_SEEN - role + at] = 1;
          if (Number.isNaN(staged[at] as number)) {
            staged[at] = value;
            state.line[at] = line;
          }
          // The port's own reading instant: its first stamped counter's (the collector stamps them alike).
          const readAt = READ_AT - role + at;
          if (!Number.isNaN(scanner.timestampMs) && Number.isNaN(staged[readAt] as number)) {
            staged[readAt] = scanner.timestampMs;
            state.line[readAt] = line;
          }
        } else if (role === LINK_UP) {
          const up = linkUpOf(mapping, name, value);
          if (up !== null && Number.isNaN(staged[at] as number)) {
            staged[at] = up ? 1 : 0;
            state.line[at] = line;
          }
        } else if (value > 0 && Number.isFinite(value)) {
          // Link rate and tick length: the last valid one wins.
          staged[at] = value;
          state.line[at] = line;
        }
      },
      state.blocks,
    );
    if (body) for await (const chunk of body) scanner.push(chunk);
    scanner.end();
    return {
      samples,
      latestTimestampMs: scanner.latestTimestampMs,
      commit: (timeMs) => {
        this.commit(state, join, timeMs, scanner.latestTimestampMs ?? Number.NaN);
        // Label sets that are gone (a port renamed, a device removed) are forgotten now and then.
        if (state.labels.length > 2 * state.touched.length + 1024)
          this.targets[target] = new TargetState(state.instance);
      },
    };
  }

  /** One target's staged scrape → the ports' readings, stamped `timeMs` (the answer's `stampMs` as taken). */
  private commit(state: TargetState, join: SeriesSample[], timeMs: number, stampMs: number): void {
    const readings = this.readings;
    // A mapping without join series resolves a label set the same way every time: once is enough.
    const cached = this.mapping.joinMetrics.length === 0;
    let resolve: ((s: SeriesSample) => string | null) | undefined;
    const ports: number[] = [];
    const token = state.token;
    for (const b of state.touched) {
      let slot = cached ? (state.slot[b] as number) : UNRESOLVED;
      if (slot === UNRESOLVED) {
        resolve ??= this.mapping.resolver(join);
        const key = resolve({
          name: state.firstName[b] as string,
          labels: state.labels[b] as Record<string, string>,
          instance: state.instance,
        });
        slot = key === null ? NO_PORT : readings.slotOf(key);
        if (cached) state.slot[b] = slot;
      }
      if (slot === NO_PORT) continue;
      const to = slot * STAGED;
      if (readings.stagedMark[slot] !== token) {
        readings.stagedMark[slot] = token;
        readings.stagedValue.fill(Number.NaN, to, to + STAGED);
        ports.push(slot);
      }
      const from = b * STAGED;
      for (let r = 0; r < STAGED; r++) {
        const v = state.value[from + r] as number;
        if (Number.isNaN(v)) continue;
        const line = state.line[from + r] as number;
        const current = readings.stagedLine[to + r] as number;
        const empty = Number.isNaN(readings.stagedValue[to + r] as number);
        // In line order, as one pass over the text: counters and link state first wins, the rest last wins.
        const wins = empty || (r === RATE || r === WAIT_TICK ? line > current : line < current);
        if (wins) {
          readings.stagedValue[to + r] = v;
          readings.stagedLine[to + r] = line;
        }
      }
    }
    for (const slot of ports) {
      if (readings.commit(slot, timeMs, stampMs)) this.onReset(readings.keys[slot] as string);
    }
  }
}
