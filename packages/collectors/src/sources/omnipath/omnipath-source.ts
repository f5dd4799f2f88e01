import { normalizeGuid } from '@fabscope/topology';
import { errorCountersFrom } from '../../fabric/error-counters.ts';
import type {
  FabricSnapshot,
  FabricSource,
  PortErrorCounters,
  PortSample,
} from '../../fabric/port-sample.ts';
import { queryTarget, trafficCounters } from '../../fabric/port-sample.ts';
import { mapBounded, runTool } from '../run-tool.ts';
import { type OpaPortStatus, parseOpapmaquery } from './opapmaquery.ts';

/** One switch or HFI port to query, and what its cable leads to. */
export interface OpaTarget {
  lid: number;
  port: number;
  nodeGuid: string;
  nodeName: string;
  nodeType: PortSample['nodeType'];
  rateBytesPerSecond: number;
  remote: PortSample['remote'];
}

/**
 * Targets file: a port per line, `#` comments, `lid,port,node_guid,node_name,node_type,rate_gbps,remote_guid,
 * remote_port,remote_name` (remote fields empty for an uncabled port); names may not contain commas.
 */
export function parseOpaTargets(text: string): OpaTarget[] {
  const targets: OpaTarget[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const f = line.split(',').map((s) => s.trim());
    const [lid, port, guid, name, type, rate, rguid, rport, rname] = f;
    if (
      f.length < 6 ||
      !/^\d+$/.test(lid ?? '') ||
      !/^\d+$/.test(port ?? '') ||
      !/^(0x)?[0-9a-fA-F]+$/.test(guid ?? '')
    ) {
      throw new Error(
        `targets line ${i + 1}: expected lid,port,node_guid,node_name,node_type,rate_gbps[,remote_guid,remote_port,remote_name]`,
      );
    }
    if (type !== 'host' && type !== 'switch' && type !== 'router') {
      throw new Error(`targets line ${i + 1}: node_type must be host, switch or router, got "${type}"`);
    }
    targets.push({
      lid: Number(lid),
      port: Number(port),
      nodeGuid: normalizeGuid(guid as string),
      nodeName: name ?? '',
      nodeType: type,
      rateBytesPerSecond: (Number(rate) * 1e9) / 8,
      remote: rguid
        ? { nodeGuid: normalizeGuid(rguid), nodeName: rname ?? '', portNumber: Number(rport) }
        : null,
    });
  });
  return targets;
}

/** `opapmaquery` arguments for one port; fixed. Never `clearportstatus`. */
function opapmaqueryArgs(lid: number, port: number): string[] {
  return ['-o', 'getportstatus', '-l', String(lid), '-m', String(port)];
}

export interface OmnipathSourceOptions {
  fabric?: string;
  targets: OpaTarget[];
  opapmaquery?: string;
  timeoutMs?: number;
  concurrency?: number;
}

/** An Omni-Path fabric read port by port with `opapmaquery -o getportstatus`. */
export function omnipathSource(options: OmnipathSourceOptions): FabricSource {
  const fabric = options.fabric ?? 'omnipath';
  const tool = options.opapmaquery ?? 'opapmaquery';
  const timeoutMs = options.timeoutMs ?? 5000;
  const concurrency = options.concurrency ?? 4;
  return {
    name: `omnipath:${fabric}`,
    async read(signal): Promise<FabricSnapshot> {
      const results = await mapBounded(options.targets, concurrency, (t) =>
        queryTarget(
          `${t.nodeGuid}/${t.port}`,
          async (): Promise<PortSample | null> => {
            const [status] = parseOpapmaquery(
              await runTool(tool, opapmaqueryArgs(t.lid, t.port), { timeoutMs, signal }),
            );
            if (!status || status.transmitBytes === null || status.receiveBytes === null) {
              throw new Error(`${tool}: no port counters in the answer for lid ${t.lid} port ${t.port}`);
            }
            const { port, ...node } = t;
            return {
              ...node,
              portNumber: port,
              linkUp: true,
              ...trafficCounters(status),
              errors: opaErrors(status),
            };
          },
          null,
        ),
      );
      return {
        fabric,
        fabricType: 'omnipath',
        ports: results.flatMap((r) => (r.value ? [r.value] : [])),
        targets: results.map((r) => r.result),
      };
    },
  };
}

/** opapmaquery's port-level error, congestion and bubble counters by their printed names, and its LQI. */
export function opaErrors(status: OpaPortStatus): PortErrorCounters {
  const errors = errorCountersFrom(
    (spec) => spec.opapmaquery,
    (name) => {
      const v = status.counters[name];
      return v === undefined ? undefined : Number(v);
    },
  );
  if (status.linkQuality !== null) errors.linkQualityIndicator = status.linkQuality;
  return errors;
}
