import type { LinkDirectionState } from '@fabscope/contracts';
import {
  type CategoryValues,
  channelOf,
  DEFAULT_PM_THRESHOLDS,
  type DirectionTraffic,
  directionTraffic,
  type Fabric,
  type FabricType,
  linkDataBytesPerSecond,
  type PmThresholdConfig,
  utilizationOf,
  waitFraction,
} from '@fabscope/topology';
import { type DirectionRates, type PortRates, portKey, type RatesSnapshot } from '../store/types.ts';
import {
  type CategoryHistograms,
  categoryConfigFor,
  categoryHistograms,
  directionCategories,
  directionErrors,
  errorsPerSecond,
  type LinkErrors,
  measuresWaitAndCategories,
  UNKNOWN_CATEGORIES,
} from './link-errors.ts';

/** One direction of a link, as the API answers it (the contract's LinkStateSchema). */
export type { LinkDirectionState };
// The direction formula is topology's (analysis/link-direction.ts), shared with the collector.
export { waitFraction };

export interface FabricSummary {
  time: string;
  hostTransmitBytesPerSecond: number | null;
  /** Counts of link directions per 10 % utilization bucket ([0,10) … [90,100]), as opatop. */
  histogram: { isl: number[]; host: number[] };
  staleLinks: number;
  /** Per PM category, link directions per 25 % of threshold (the last bar ≥ 100 %) and unknown. Live only. */
  categories?: CategoryHistograms;
  /** Ports of the topology the store has no fresh reading of. Live only. */
  portsWithoutData?: number;
}

export interface ChannelKeys {
  index: number;
  /**
   * What never changes about the direction: ids, ends, kind, capacity, and the network of its cable
   * (absent: one that measures XmitWait and categories).
   */
  fixed: Pick<LinkDirectionState, 'id' | 'linkId' | 'kind' | 'from' | 'to' | 'capacityBytesPerSecond'> & {
    network?: FabricType;
  };
  fromKey: string;
  toKey: string;
  fromIsHost: boolean;
}

/**
 * Channel → port keys and fixed fields, computed once per fabric so each tick is one pass that
 * only looks up rates (no id strings built per tick: 166k directions at 27,648 hosts).
 */
export class LinkIndex {
  readonly channels: ChannelKeys[] = [];
  /** Every cabled port of the topology, by portKey. */
  readonly portKeys: ReadonlySet<string>;
  /** The same ports in a fixed order: the order of a frame's `portsRead`. */
  readonly portList: readonly string[];
  /** Per channel: the position of its sending port (fromKey) in portList. */
  readonly portOfChannel: Int32Array;
  /** Per channel: the link's data rate, bytes/s (fixed.capacityBytesPerSecond). */
  readonly capacity: Float64Array;
  /** Per channel: 1 when the direction is an ISL, 0 a host link (for loops over a frame's columns). */
  readonly isl: Uint8Array;
  /** Per channel: 1 when the direction leaves a host (what the summary's host transmit counts). */
  readonly fromHost: Uint8Array;
  /** The channels of each link kind, ascending. */
  readonly byKind: { readonly isl: Int32Array; readonly host: Int32Array };
  private ranks: Int32Array | undefined;
  /** pmConfig as this fabric's categories use it (categoryConfigFor). */
  readonly categoryConfig: PmThresholdConfig;

  constructor(
    readonly fabric: Fabric,
    /** Thresholds and weights of the PM categories (FABSCOPE_PM_THRESHOLDS, opafm XML). */
    readonly pmConfig: PmThresholdConfig = DEFAULT_PM_THRESHOLDS,
  ) {
    const guidOf = (name: string) => fabric.nodeByName.get(name)?.guid ?? '';
    for (let c = 0; c < fabric.links.length * 2; c++) {
      const channel = channelOf(fabric, c);
      this.channels.push({
        index: c,
        fixed: {
          id: channel.id,
          linkId: channel.link.id,
          kind: channel.link.kind,
          from: channel.from,
          to: channel.to,
          // The data rate after line encoding (4x SDR carries 1 GB/s, not 1.25): one table.
          capacityBytesPerSecond: linkDataBytesPerSecond(channel.link, fabric.fabricType),
          network: channel.link.fabricType ?? fabric.fabricType,
        },
        fromKey: portKey(guidOf(channel.from.node), channel.from.port),
        toKey: portKey(guidOf(channel.to.node), channel.to.port),
        // Hosts only: a router's transmit is what it forwards, already counted at the host that
        // sent it (an iperf through the router would otherwise count twice).
        fromIsHost: fabric.nodeByName.get(channel.from.node)?.type === 'host',
      });
    }
    this.capacity = Float64Array.from(this.channels, (c) => c.fixed.capacityBytesPerSecond);
    this.isl = Uint8Array.from(this.channels, (c) => (c.fixed.kind === 'isl' ? 1 : 0));
    this.fromHost = Uint8Array.from(this.channels, (c) => (c.fromIsHost ? 1 : 0));
    this.portKeys = new Set(this.channels.map((c) => c.fromKey));
    this.portList = [...this.portKeys];
    const position = new Map(this.portList.map((key, i) => [key, i]));
    this.portOfChannel = Int32Array.from(this.channels, (c) => position.get(c.fromKey) as number);
    this.byKind = {
      isl: Int32Array.from(this.channels.filter((c) => c.fixed.kind === 'isl').map((c) => c.index)),
      host: Int32Array.from(this.channels.filter((c) => c.fixed.kind !== 'isl').map((c) => c.index)),
    };
    this.categoryConfig = categoryConfigFor(fabric.fabricType, pmConfig);
  }

  /**
   * Per channel, the rank of its id in ascending order (as `a.id < b.id` orders them): rankings
   * over a frame's columns break ties by id with it, without comparing strings. Made on first use.
   */
  idRank(): Int32Array {
    if (this.ranks === undefined) {
      const ids = this.channels.map((c) => c.fixed.id);
      const order = ids
        .map((_, c) => c)
        .sort((a, b) => {
          const x = ids[a] as string;
          const y = ids[b] as string;
          return x < y ? -1 : x > y ? 1 : 0;
        });
      const ranks = new Int32Array(ids.length);
      order.forEach((c, rank) => {
        ranks[c] = rank;
      });
      this.ranks = ranks;
    }
    return this.ranks;
  }
}

/** A link is down when either end says so, up when an end says so and none says down. */
export function combineLinkUp(a: boolean | null | undefined, b: boolean | null | undefined): boolean | null {
  if (a === false || b === false) return false;
  if (a === true || b === true) return true;
  return null;
}

/** A direction measured whole at the edge (the collector's per-direction gauges) as traffic. */
function edgeTraffic(d: DirectionRates | undefined): DirectionTraffic {
  return {
    bytesPerSecond: d?.bytesPerSecond ?? null,
    packetsPerSecond: d?.packetsPerSecond ?? null,
    transmitWaitTicksPerSecond: null,
    transmitWaitFraction: d?.transmitWaitFraction ?? null,
  };
}

/**
 * Utilization of each link direction = max(Δtx at the sending port, Δrx at the receiving port)
 * / Δt / capacity — the Omni-Path performance manager's formula, which also covers a port whose
 * own counters are unreadable. Unknown stays null (stale), never 0. A store whose source computed
 * the directions already (the collector's gauges, `snapshot.directions`) gives them as they are;
 * the ports then carry the link states and error rates only.
 */
export function linkDirectionStates(index: LinkIndex, snapshot: RatesSnapshot): LinkDirectionState[] {
  return index.channels.map((channel) => directionState(channel.fixed, measuresOf(index, channel, snapshot)));
}

/**
 * Per index and channel: the two ends' error rates last combined, and the direction's errors
 * made of them. A store gives a port the same error-rates object again while its error reading
 * is the same (port-readings.ts: on big fabrics the error families come every 30 s, the data
 * every 10 s), so most ticks reuse the direction's errors instead of making 166k objects.
 */
const errorMemos = new WeakMap<LinkIndex, ErrorMemo>();

interface ErrorMemo {
  tx: unknown[];
  rx: unknown[];
  errors: LinkErrors[];
  /** errorsPerSecond of `errors`, per channel; undefined until asked for. */
  sums: (number | null | undefined)[];
}

function errorsOfDirection(
  index: LinkIndex,
  c: number,
  sender: PortRates | undefined,
  receiver: PortRates | undefined,
): LinkErrors {
  const tx = sender?.errors;
  const rx = receiver?.errors;
  let memo = errorMemos.get(index);
  if (memo === undefined) {
    memo = { tx: [], rx: [], errors: [], sums: [] };
    errorMemos.set(index, memo);
  }
  const kept = memo.errors[c];
  if (kept !== undefined && memo.tx[c] === tx && memo.rx[c] === rx) return kept;
  const errors = directionErrors(sender, receiver);
  memo.tx[c] = tx;
  memo.rx[c] = rx;
  memo.errors[c] = errors;
  memo.sums[c] = undefined;
  return errors;
}

/**
 * errorsPerSecond(errors) of channel `c`: kept with the direction's errors while they are the
 * same object (errorsOfDirection), so most ticks add nothing up.
 */
export function errorSumAt(index: LinkIndex, c: number, errors: LinkErrors): number | null {
  const memo = errorMemos.get(index);
  if (memo === undefined || memo.errors[c] !== errors) return errorsPerSecond(errors);
  let sum = memo.sums[c];
  if (sum === undefined) {
    sum = errorsPerSecond(errors);
    memo.sums[c] = sum;
  }
  return sum;
}

/**
 * What the store measured of one direction: its traffic from its two ends (or as the source
 * measured it whole), its link state, its errors from the two ends and their PM categories.
 */
export function measuresOf(
  index: LinkIndex,
  channel: ChannelKeys,
  snapshot: RatesSnapshot,
): DirectionMeasures {
  return measuresBetween(
    index,
    channel,
    snapshot,
    snapshot.ports.get(channel.fromKey),
    snapshot.ports.get(channel.toKey),
  );
}

/** measuresOf with the channel's two ports already looked up in `snapshot.ports`. */
export function measuresBetween(
  index: LinkIndex,
  channel: ChannelKeys,
  snapshot: RatesSnapshot,
  sender: PortRates | undefined,
  receiver: PortRates | undefined,
): DirectionMeasures {
  const directions = snapshot.directions;
  const traffic = directions
    ? edgeTraffic(directions.get(channel.fromKey))
    : directionTraffic(sender, receiver);
  const errors = errorsOfDirection(index, channel.index, sender, receiver);
  return {
    bytesPerSecond: traffic.bytesPerSecond,
    packetsPerSecond: traffic.packetsPerSecond,
    transmitWaitTicksPerSecond: traffic.transmitWaitTicksPerSecond,
    transmitWaitFraction: traffic.transmitWaitFraction,
    linkUp: combineLinkUp(sender?.linkUp, receiver?.linkUp),
    errors,
    categories: directionCategories(errors, traffic, index.categoryConfig),
  };
}

/** What a store measured of one direction; utilization and staleness follow from it. */
export interface DirectionMeasures {
  bytesPerSecond: number | null;
  packetsPerSecond: number | null;
  transmitWaitTicksPerSecond: number | null;
  transmitWaitFraction: number | null;
  linkUp: boolean | null;
  errors: LinkErrors;
  categories: CategoryValues;
}

/**
 * Whether a direction's XmitWait and PM categories are known: Ethernet has neither, whatever a
 * source reports (directionState's rule, and the frame's).
 */
export function reportsWaitAndCategories(fixed: ChannelKeys['fixed']): boolean {
  return fixed.network === undefined || measuresWaitAndCategories(fixed.network);
}

/**
 * A direction's state, the one place its fields are put together (live and at past instants, both
 * stores): one object literal with every field, so that the 166k of them a tick makes at
 * fat-tree-27648 are fast objects, not dictionaries. Utilization is the fraction of the link's
 * capacity, clamped to 1; a direction without a rate is stale.
 */
export function directionState(fixed: ChannelKeys['fixed'], m: DirectionMeasures): LinkDirectionState {
  const capacity = fixed.capacityBytesPerSecond;
  const bytes = m.bytesPerSecond;
  const pm = reportsWaitAndCategories(fixed);
  return {
    id: fixed.id,
    linkId: fixed.linkId,
    kind: fixed.kind,
    from: fixed.from,
    to: fixed.to,
    capacityBytesPerSecond: capacity,
    utilization: utilizationOf(bytes, capacity),
    bytesPerSecond: bytes,
    packetsPerSecond: m.packetsPerSecond,
    transmitWaitTicksPerSecond: pm ? m.transmitWaitTicksPerSecond : null,
    transmitWaitFraction: pm ? m.transmitWaitFraction : null,
    linkUp: m.linkUp,
    stale: bytes === null,
    errors: m.errors,
    errorsPerSecond: errorsPerSecond(m.errors),
    categories: pm ? m.categories : (UNKNOWN_CATEGORIES as CategoryValues),
  };
}

export function utilizationBucket(utilization: number): number {
  return Math.min(9, Math.max(0, Math.floor(utilization * 10)));
}

export function summarize(
  index: LinkIndex,
  states: LinkDirectionState[],
  timeMs: number,
  /** The store's answer the states come from: with it, the summary counts the ports without data. */
  snapshot?: RatesSnapshot,
): FabricSummary {
  const histogram = { isl: new Array<number>(10).fill(0), host: new Array<number>(10).fill(0) };
  let hostTransmit = 0;
  let hostKnown = 0;
  let staleLinks = 0;
  states.forEach((state, i) => {
    if (state.utilization === null) {
      staleLinks++;
      return;
    }
    const bucket = histogram[state.kind];
    bucket[utilizationBucket(state.utilization)] = (bucket[utilizationBucket(state.utilization)] ?? 0) + 1;
    if (index.channels[i]?.fromIsHost && state.bytesPerSecond !== null) {
      hostTransmit += state.bytesPerSecond;
      hostKnown++;
    }
  });
  const summary: FabricSummary = {
    time: new Date(timeMs).toISOString(),
    hostTransmitBytesPerSecond: hostKnown > 0 ? hostTransmit : null,
    histogram,
    staleLinks,
  };
  if (snapshot) {
    summary.categories = categoryHistograms(states);
    let without = 0;
    for (const key of index.portKeys) if (!snapshot.ports.has(key)) without++;
    summary.portsWithoutData = without;
  }
  return summary;
}
