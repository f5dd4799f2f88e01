import type { FabricEvent } from '../lib/fabric-event.ts';
import type { LinkIndex } from '../lib/link-index.ts';

/**
 * A link's state changes as events, against the last state *reported* for it rather than the frame before: a link
 * seen down, then unknown (its switch gone, its ports unreachable), then up is `link down` … `link up`, so every
 * `link down` has its `link up`, and one link gives one event per change (its two directions agree).
 */
export class LinkStateEvents {
  /** Per link: 1 up, 0 down, −1 never known. */
  private readonly reported: Int8Array;
  /** The links' states in the frame being read. */
  private readonly scratch: Int8Array;
  /** Per channel, its link's position. */
  private readonly linkOf: Int32Array;
  private readonly linkIds: string[] = [];
  private seeded = false;

  constructor(index: LinkIndex) {
    const position = new Map<string, number>();
    this.linkOf = new Int32Array(index.channels.length);
    for (const { fixed, index: c } of index.channels) {
      let at = position.get(fixed.linkId);
      if (at === undefined) {
        at = this.linkIds.length;
        position.set(fixed.linkId, at);
        this.linkIds.push(fixed.linkId);
      }
      this.linkOf[c] = at;
    }
    this.reported = new Int8Array(this.linkIds.length).fill(-1);
    this.scratch = new Int8Array(this.linkIds.length);
  }

  /** Takes the states of a frame recorded before (the history read back at start) as reported, once. */
  seed(up: Int8Array): void {
    if (this.seeded) return;
    this.seeded = true;
    this.note(up, 0, undefined);
  }

  /** The events of a new frame's link states (1 up, 0 down, −1 unknown by channel). */
  changes(up: Int8Array, timeMs: number): FabricEvent[] {
    this.seeded = true;
    const events: FabricEvent[] = [];
    this.note(up, timeMs, events);
    return events;
  }

  private note(up: Int8Array, timeMs: number, events: FabricEvent[] | undefined): void {
    // A link's state in this frame: down when a direction says so, up when one does and none says down.
    const now = this.scratch.fill(-1);
    const linkOf = this.linkOf;
    for (let c = 0; c < up.length; c++) {
      const is = up[c] as number;
      const link = linkOf[c] as number;
      if (is === 0 || (is === 1 && now[link] !== 0)) now[link] = is;
    }
    const reported = this.reported;
    for (let link = 0; link < now.length; link++) {
      const is = now[link] as number;
      const was = reported[link] as number;
      if (is < 0 || was === is) continue;
      reported[link] = is;
      if (was < 0 || events === undefined) continue;
      events.push({
        timeMs,
        kind: 'link-state',
        subject: this.linkIds[link] as string,
        detail: is === 1 ? 'link up' : 'link down',
      });
    }
  }
}
