import type { EventKind, EventSeverity } from '@fabscope/contracts';

/** Something that happened to the fabric, for annotations and "since when?". */
export interface FabricEvent {
  timeMs: number;
  kind: EventKind;
  /** What it happened to: a link id, a link direction, a port `node/port`, `fabric`. */
  subject: string;
  /** What happened, for people: "enabled false → true", "link down". */
  detail: string;
  /** Absent on changes made through the API (info). */
  severity?: EventSeverity;
}

/** Where events are written and read back from (in time order). */
export interface EventLog {
  append(event: FabricEvent): void;
  /** Events with from ≤ time ≤ to, oldest first. */
  list(fromMs: number, toMs: number): FabricEvent[];
}
