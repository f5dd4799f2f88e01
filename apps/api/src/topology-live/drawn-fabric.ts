import {
  drawnTopology,
  type Fabric,
  type ForwardingTables,
  fabricOfSnapshot,
  type TopologySnapshot,
  topologySnapshot,
} from '@fabscope/topology';
import type { EventLog } from '../lib/fabric-event.ts';
import { LinkIndex } from '../lib/link-index.ts';
import { topologyEvent } from './answers.ts';

/** What the API runs on and a swap replaces: the routes read these on every request. */
export interface DrawnTarget {
  fabric: Fabric;
  linkIndex: LinkIndex;
  tables: ForwardingTables;
}

/** Drawings kept for time travel (the oldest dropped first). */
const MAX_DRAWINGS = 8;

/** One topology the API drew, from when. */
export interface Drawing {
  version: number;
  fromMs: number;
  linkIndex: LinkIndex;
}

export interface DrawnFabricOptions {
  /** Tables for the new fabric (the SM's re-read, or computed again); given the tables in use. */
  retable: (fabric: Fabric, before: ForwardingTables) => ForwardingTables;
  /** Called after each swap with the new index (the sampler draws it from its next tick). */
  onSwap: (linkIndex: LinkIndex, version: number) => void;
  events?: EventLog | undefined;
}

/**
 * The topology the API draws and measures, following discovery: what a discovery adds (gone cables stay, drawn down)
 * swaps the fabric, link index and tables, and the dashboards redraw.
 */
export class DrawnFabric {
  private snapshot: TopologySnapshot;
  private readonly drawings: Drawing[];

  constructor(
    private readonly target: DrawnTarget,
    private readonly options: DrawnFabricOptions,
    startMs = Date.now(),
  ) {
    this.snapshot = topologySnapshot(target.fabric);
    this.drawings = [{ version: 0, fromMs: startMs, linkIndex: target.linkIndex }];
  }

  get version(): number {
    return (this.drawings.at(-1) as Drawing).version;
  }

  /** Every drawing kept, oldest first. */
  list(): readonly Drawing[] {
    return this.drawings;
  }

  /** A discovery's topology: swaps what is drawn when it adds to it; true when it did. */
  observe(newest: TopologySnapshot, timeMs: number): boolean {
    const next = drawnTopology(this.snapshot, newest);
    if (!next) return false;
    const before = this.target.fabric;
    const fabric = fabricOfSnapshot(next);
    const linkIndex = new LinkIndex(fabric, this.target.linkIndex.pmConfig);
    this.target.tables = this.options.retable(fabric, this.target.tables);
    this.target.fabric = fabric;
    this.target.linkIndex = linkIndex;
    this.snapshot = topologySnapshot(fabric);
    const version = this.version + 1;
    this.drawings.push({ version, fromMs: timeMs, linkIndex });
    if (this.drawings.length > MAX_DRAWINGS) this.drawings.shift();
    this.options.onSwap(linkIndex, version);
    this.options.events?.append(
      topologyEvent(
        timeMs,
        'fabric',
        `drawing the fabric as discovered (version ${version}): ${fabric.links.length} cables, ${fabric.nodes.length} nodes (was ${before.links.length} and ${before.nodes.length}); cables no longer found stay drawn, down`,
        'info',
      ),
    );
    return true;
  }
}
