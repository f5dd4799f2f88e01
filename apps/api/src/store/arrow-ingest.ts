import { portKey } from '../lib/port-rates.ts';
import { slicedLoop } from '../lib/sliced.ts';
import type { ArrowScrape } from './arrow-scrape.ts';
import type { PortReadings } from './port-readings.ts';
import { COUNTER_SEEN, FIELD_COUNT, LINK_UP, READ_AT, type ScrapeRoles, STAGED } from './scrape-staging.ts';
import { linkUpOf, type SeriesMapping } from './series-mapping.ts';

/**
 * A fabscope collector's Arrow answers → the ports' readings, staged as the text's samples are: a
 * counter's first value and the link state's, a link rate's or a tick length's last positive one.
 */
export class ArrowIngest {
  /** Per target, the port slots of the rows of its last answer and the keys they were for. */
  private readonly rows: ({
    keys: string | null;
    guids: string[];
    ports: Int32Array;
    slots: Int32Array;
  } | null)[];
  /** The staging under way (one target's at a time: the staging arrays are shared). */
  private staging: Promise<void> = Promise.resolve();

  constructor(
    targets: number,
    private readonly readings: PortReadings,
    private readonly roles: ScrapeRoles,
    private readonly mapping: SeriesMapping,
    /** Called with each port whose counters went backwards. */
    private readonly onReset: (key: string) => void,
  ) {
    this.rows = Array.from({ length: targets }, () => null);
  }

  /**
   * One target's answer into the readings, stamped `timeMs` (its `countersReadAtMs` as taken; a row
   * with its own read instant that much moved). Returns the values read.
   */
  commit(target: number, scrape: ArrowScrape, timeMs: number): Promise<number> {
    const done = this.staging.then(() => this.stageAndCommit(target, scrape, timeMs));
    this.staging = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  }

  private async stageAndCommit(target: number, scrape: ArrowScrape, timeMs: number): Promise<number> {
    const slots = this.slotsOf(target, scrape);
    const readings = this.readings;
    const token = readings.nextToken();
    const ports: number[] = [];
    for (let r = 0; r < scrape.rows; r++) {
      const slot = slots[r] as number;
      if (readings.stagedMark[slot] === token) continue;
      readings.stagedMark[slot] = token;
      readings.stagedValue.fill(Number.NaN, slot * STAGED, (slot + 1) * STAGED);
      ports.push(slot);
    }
    const columns: { name: string; values: Float64Array; role: number }[] = [];
    for (const [name, values] of scrape.families) {
      const role = this.roles.byName.get(name);
      if (role !== undefined) columns.push({ name, values, role });
    }
    const staged = readings.stagedValue;
    let samples = 0;
    // Column by column, a turn of the loop between them; the rates read the rings only.
    await slicedLoop(columns.length, (k) => {
      const { name, values, role } = columns[k] as (typeof columns)[number];
      for (let r = 0; r < scrape.rows; r++) {
        const value = values[r] as number;
        if (Number.isNaN(value)) continue;
        samples++;
        const offset = (slots[r] as number) * STAGED;
        const at = offset + role;
        if (role < FIELD_COUNT) {
          staged[offset + COUNTER_SEEN] = 1;
          if (Number.isNaN(staged[at] as number)) staged[at] = value;
        } else if (role === LINK_UP) {
          const up = linkUpOf(this.mapping, name, value);
          if (up !== null && Number.isNaN(staged[at] as number)) staged[at] = up ? 1 : 0;
        } else if (value > 0 && Number.isFinite(value)) {
          staged[at] = value;
        }
      }
    });
    const readAt = scrape.portReadAtMs;
    if (readAt !== null)
      for (let r = 0; r < scrape.rows; r++) {
        const at = (slots[r] as number) * STAGED + READ_AT;
        if (Number.isNaN(staged[at] as number)) staged[at] = readAt[r] as number;
      }
    const stampMs = scrape.countersReadAtMs ?? Number.NaN;
    // Each port's reading lands in its ring at once (its rates are from one reading or the next),
    // the ports in slices of the loop.
    await slicedLoop(ports.length, (i) => {
      const slot = ports[i] as number;
      if (readings.commit(slot, timeMs, stampMs)) this.onReset(readings.keys[slot] as string);
    });
    return samples;
  }

  /**
   * The port slot of each row: those of the target's answer before when it names the same key
   * columns, or has the same keys row for row.
   */
  private slotsOf(target: number, scrape: ArrowScrape): Int32Array {
    const kept = this.rows[target];
    const { rows } = scrape;
    if (kept && kept.slots.length === rows && scrape.keys !== null && kept.keys === scrape.keys)
      return kept.slots;
    const { nodeGuid, port } = scrape.keyColumns();
    if (kept && kept.guids.length === rows) {
      let same = true;
      for (let r = 0; r < rows && same; r++)
        same = kept.guids[r] === nodeGuid[r] && kept.ports[r] === port[r];
      if (same) {
        kept.keys = scrape.keys;
        return kept.slots;
      }
    }
    const guids = Array.from(nodeGuid);
    const ports = Int32Array.from(port);
    const slots = Int32Array.from({ length: rows }, (_, r) =>
      this.readings.slotOf(portKey(guids[r] as string, ports[r] as number)),
    );
    this.rows[target] = { keys: scrape.keys, guids, ports, slots };
    return slots;
  }
}
