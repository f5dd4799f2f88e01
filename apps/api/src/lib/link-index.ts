import type { LinkDirectionState } from '@fabscope/contracts';
import { naturalCompare } from '@fabscope/contracts/names';
import {
  channelOf,
  DEFAULT_PM_THRESHOLDS,
  type Fabric,
  type FabricType,
  linkDataBytesPerSecond,
  type PmThresholdConfig,
} from '@fabscope/topology';
import { categoryConfigFor } from './link-errors.ts';
import { portKey } from './port-rates.ts';

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

/** Channel → port keys and fixed fields, computed once per fabric so a tick builds no id strings. */
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
  private byId: Map<string, ChannelKeys> | undefined;
  /** pmConfig as this fabric's categories use it (categoryConfigFor). */
  readonly categoryConfig: PmThresholdConfig;

  /** The channels by direction id, made on first use. */
  get channelById(): ReadonlyMap<string, ChannelKeys> {
    this.byId ??= new Map(this.channels.map((c) => [c.fixed.id, c]));
    return this.byId;
  }

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
   * Per channel, the rank of its id in natural order (`core1/2` before `core1/10`): rankings over a
   * frame's columns break ties by id with it, without comparing strings. Made on first use.
   */
  idRank(): Int32Array {
    if (this.ranks === undefined) {
      const ids = this.channels.map((c) => c.fixed.id);
      const order = ids.map((_, c) => c).sort((a, b) => naturalCompare(ids[a] as string, ids[b] as string));
      const ranks = new Int32Array(ids.length);
      order.forEach((c, rank) => {
        ranks[c] = rank;
      });
      this.ranks = ranks;
    }
    return this.ranks;
  }
}
