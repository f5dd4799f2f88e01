import type { FabricSnapshot, FabricSource, PortSample, TargetResult } from '../../fabric/port-sample.ts';
import { gnmiConnection, subscribeRequest } from './gnmi-client.ts';
import type { InterfaceReading } from './gnmi-port-table.ts';
import { farPortsOf, type GnmiCongestion, gnmiCongestion, gnmiPorts } from './gnmi-ports.ts';
import {
  type Backoff,
  type StreamClock,
  type StreamStatus,
  type SubscribeCall,
  SYSTEM_CLOCK,
  TargetStream,
} from './gnmi-stream.ts';
import type { GnmiTarget } from './gnmi-targets.ts';

export interface GnmiSourceOptions {
  fabric?: string;
  targets: GnmiTarget[];
  clock?: StreamClock;
  /** Waits between resubscribes of a dropped stream: 1 s doubling to 60 s unless given. */
  backoff?: Backoff;
  /** A stream with no update for this many sample intervals is silent: a gap. */
  staleIntervals?: number;
  /** The first read waits at most this long for every stream's first full dump (sync_response) or failure. */
  firstSyncWaitMs?: number;
  /** How a target's calls are opened: a gRPC channel by default. */
  connect?: (target: GnmiTarget) => { open: () => SubscribeCall; close: () => void };
}

/** A gNMI fabric source: its streams' health and the congestion counters port samples have no field for. */
export interface GnmiFabricSource extends FabricSource {
  statuses(): { target: string; status: Readonly<StreamStatus> }[];
  congestion(): GnmiCongestion[];
  close(): void;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Why a target has no figures in this read, or null when it has them. */
export function gapReason(s: Readonly<StreamStatus>, nowMs: number, staleAfterMs: number): string | null {
  if (s.state === 'waiting') {
    const wait =
      s.retryAtMs === null ? '' : `; resubscribing in ${seconds(Math.max(0, s.retryAtMs - nowMs))}`;
    return `stream dropped: ${s.lastDrop ?? 'unknown reason'}${wait} (${s.drops} drops)`;
  }
  if (s.state === 'stopped') return 'source closed';
  if (s.lastUpdateMs === null) {
    return s.drops > 0 ? `resubscribing after: ${s.lastDrop}` : 'subscribed, no update yet';
  }
  const silent = nowMs - s.lastUpdateMs;
  return silent > staleAfterMs ? `no update for ${seconds(silent)}` : null;
}

/**
 * Ethernet switches streaming OpenConfig telemetry over gNMI (Subscribe, STREAM, SAMPLE): each target's
 * latest values held as they arrive, read into port samples on each read; a target whose stream dropped
 * or fell silent has no ports in that read (a gap) and an error with its reason.
 */
export function gnmiSource(options: GnmiSourceOptions): GnmiFabricSource {
  const fabric = options.fabric ?? 'ethernet';
  const clock = options.clock ?? SYSTEM_CLOCK;
  const backoff = options.backoff ?? { initialMs: 1000, maxMs: 60_000 };
  const staleIntervals = options.staleIntervals ?? 3;
  const connect = options.connect ?? gnmiConnection;
  let firstSyncWaitMs = options.firstSyncWaitMs ?? 5000;
  const streams = options.targets.map((target) => {
    const connection = connect(target);
    const stream = new TargetStream({
      open: connection.open,
      request: subscribeRequest(target),
      clock,
      backoff,
    });
    stream.start();
    return { target, stream, connection };
  });
  return {
    name: `gnmi:${fabric}`,
    statuses: () => streams.map((s) => ({ target: s.target.label, status: s.stream.status() })),
    congestion: () =>
      streams.flatMap((s) =>
        s.stream.status().state === 'streaming'
          ? s.stream.table.interfaces().map((r) => gnmiCongestion(s.target.name, r))
          : [],
      ),
    close() {
      for (const s of streams) {
        s.stream.stop();
        s.connection.close();
      }
    },
    async read(signal): Promise<FabricSnapshot> {
      signal.throwIfAborted();
      // A read right after start (`collect --once`) would find nothing yet: wait, bounded, for the first dumps.
      const settled = () =>
        streams.every(({ stream: t }) => t.status().synced || t.status().state !== 'connecting');
      for (const until = clock.now() + firstSyncWaitMs; !settled() && clock.now() < until; ) {
        await new Promise((resolve) => clock.setTimeout(() => resolve(undefined), 50));
        signal.throwIfAborted();
      }
      firstSyncWaitMs = 0;
      const now = clock.now();
      const live = new Map<string, readonly InterfaceReading[]>();
      const targets: TargetResult[] = streams.map(({ target, stream }) => {
        const reason = gapReason(stream.status(), now, staleIntervals * target.sampleMs);
        if (reason !== null) return { target: target.label, durationSeconds: 0, outcome: 'error', reason };
        live.set(target.name, stream.table.interfaces());
        return { target: target.label, durationSeconds: 0, outcome: 'ok' };
      });
      // Cables from LLDP, as the SNMP source draws them: only to switches read in this same read.
      const farPort = farPortsOf(live);
      const ports: PortSample[] = [...live].flatMap(([name, interfaces]) =>
        gnmiPorts(name, interfaces, farPort),
      );
      return { fabric, fabricType: 'ethernet', ports, targets };
    },
  };
}
