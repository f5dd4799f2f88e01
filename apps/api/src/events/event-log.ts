import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { EVENT_KINDS, EVENT_SEVERITIES, type EventKind, type EventSeverity } from '@fabscope/contracts';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { removeLeftoverTemps, replaceFileDurably } from '../lib/durable-file.ts';
import type { EventLog, FabricEvent } from '../lib/fabric-event.ts';

export type { EventLog, FabricEvent };
export { EVENT_KINDS, EVENT_SEVERITIES, type EventKind, type EventSeverity };

export const DEFAULT_MAX_EVENTS = 10_000;

/** The newest `maxEvents` events in memory; the oldest are dropped. */
export class MemoryEventLog implements EventLog {
  protected events: FabricEvent[] = [];

  constructor(readonly maxEvents = DEFAULT_MAX_EVENTS) {}

  append(event: FabricEvent): void {
    // Events arrive in time order nearly always; one out of order is put in its place.
    let at = this.events.length;
    while (at > 0 && (this.events[at - 1] as FabricEvent).timeMs > event.timeMs) at--;
    this.events.splice(at, 0, event);
    if (this.events.length > this.maxEvents) this.events.splice(0, this.events.length - this.maxEvents);
  }

  list(fromMs: number, toMs: number): FabricEvent[] {
    return this.events.filter((e) => e.timeMs >= fromMs && e.timeMs <= toMs);
  }
}

/** A line of events.jsonl as read back: one that does not match (an old or damaged line) is skipped. */
const StoredEvent = Type.Object({
  timeMs: Type.Number(),
  kind: Type.Union(EVENT_KINDS.map((k) => Type.Literal(k))),
  subject: Type.String(),
  detail: Type.String(),
  severity: Type.Optional(Type.Union(EVENT_SEVERITIES.map((k) => Type.Literal(k)))),
});

/** Events that survive a restart: one JSON object per line in `dir/events.jsonl`, read back at start. */
export class FileEventLog extends MemoryEventLog {
  readonly file: string;
  private lines = 0;

  constructor(dir: string, maxEvents = DEFAULT_MAX_EVENTS) {
    super(maxEvents);
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, 'events.jsonl');
    // A compaction cut short left its temporary file: the old file is still whole.
    removeLeftoverTemps(this.file);
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    // A write cut short leaves no newline: the next event starts on a line of its own.
    if (text !== '' && !text.endsWith('\n')) appendFileSync(this.file, '\n');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      this.lines++;
      try {
        const event: unknown = JSON.parse(line);
        if (Value.Check(StoredEvent, event)) super.append(event);
      } catch {
        // a line cut short by a crash: the rest of the file is still good
      }
    }
  }

  override append(event: FabricEvent): void {
    super.append(event);
    if (this.lines + 1 > 2 * this.maxEvents) {
      replaceFileDurably(this.file, this.events.map((e) => `${JSON.stringify(e)}\n`).join(''));
      this.lines = this.events.length;
    } else {
      appendFileSync(this.file, `${JSON.stringify(event)}\n`);
      this.lines++;
    }
  }
}
