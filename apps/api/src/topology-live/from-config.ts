import { execFile } from 'node:child_process';
import { basename } from 'node:path';
import {
  type Fabric,
  type NodeNameMap,
  parsePortsReport,
  parseTopology,
  type TopologySnapshot,
  topologySnapshot,
} from '@fabscope/topology';
import { parsedFile } from '../config/site-files.ts';
import type { ApiConfig } from '../config.ts';
import type { EventLog, FabricEvent } from '../events/event-log.ts';
import { DriftTracker } from './drift-tracker.ts';
import { LiveTopology } from './live-topology.ts';
import { type IbSubnet, mergeSubnets, subnetTools } from './subnets.ts';
import { TopologyVersions } from './versions.ts';

/** Most bytes of `ibnetdiscover -p` read: a line a port, room for the largest fabrics many times over. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export interface DiscoveryTools {
  /** Environment of ibnetdiscover (the lab's LD_PRELOAD and IBSIM_SOCKNAME reach it through it). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Working directory (umad2sim writes a simulated sysfs into it). */
  cwd?: string | undefined;
  /** The site's names by GUID (FABSCOPE_NODE_NAME_MAP), over the NodeDescriptions. */
  nodeNames?: NodeNameMap | undefined;
  /** The program; default `ibnetdiscover` from PATH. */
  command?: string | undefined;
  timeoutMs?: number | undefined;
  /** Arguments besides `-p`: the local port to discover through (`-C mlx5_1 -P 1`). */
  args?: readonly string[] | undefined;
  /** Several subnets (subnets.ts): each discovered through its own port or environment, drawn as one fabric. */
  subnets?: readonly IbSubnet[] | undefined;
}

/** The fabric as `ibnetdiscover -p` reads it now (names are the NodeDescriptions), without a shell. */
export function ibnetdiscoverPorts(fabricName: string, tools: DiscoveryTools = {}): () => Promise<Fabric> {
  return () =>
    new Promise((resolve, reject) => {
      execFile(
        tools.command ?? 'ibnetdiscover',
        ['-p', ...(tools.args ?? [])],
        {
          env: tools.env ?? process.env,
          ...(tools.cwd ? { cwd: tools.cwd } : {}),
          timeout: tools.timeoutMs ?? 60_000,
          maxBuffer: MAX_OUTPUT_BYTES,
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          if (error) {
            const why = String(stderr).trim().split('\n').at(-1) || error.message;
            reject(new Error(`ibnetdiscover -p: ${why}`));
            return;
          }
          try {
            resolve(parsePortsReport(stdout, fabricName, { nodeNames: tools.nodeNames }));
          } catch (parseError) {
            reject(parseError);
          }
        },
      );
    });
}

/**
 * Every subnet as `ibnetdiscover -p` reads it through its own port (or environment), as one fabric
 * (mergeSubnets); one subnet is today's fabric as it is. A subnet that cannot be read fails the discovery, named.
 */
export function discoverSubnets(
  fabricName: string,
  subnets: readonly IbSubnet[],
  tools: DiscoveryTools = {},
): () => Promise<Fabric> {
  return async () => {
    const parts = await Promise.all(
      subnets.map(async (subnet) => {
        const reach = subnetTools(subnet, tools);
        try {
          const fabric = await ibnetdiscoverPorts(fabricName, { ...tools, ...reach, subnets: undefined })();
          return { subnet: subnet.name, fabric };
        } catch (error) {
          throw new Error(`subnet ${subnet.name}: ${(error as Error).message}`, { cause: error });
        }
      }),
    );
    if (parts.length === 1) return (parts[0] as { fabric: Fabric }).fabric;
    return mergeSubnets(parts, fabricName, tools.nodeNames);
  };
}

/**
 * Calls `listener` after every event appended to `log` from now on (the log's own append still
 * runs first); returns the undo.
 */
export function afterAppend(log: EventLog, listener: (event: FabricEvent) => void): () => void {
  const append = log.append;
  log.append = function (this: EventLog, event: FabricEvent) {
    append.call(this, event);
    try {
      listener(event);
    } catch {
      // a listener never breaks the log
    }
  };
  return () => {
    log.append = append;
  };
}

/**
 * An API's live topology: versions (in FABSCOPE_EVENTS_DIR if set), `ibnetdiscover -p` discovery if FABSCOPE_FABRIC=
 * infiniband every FABSCOPE_DISCOVER_INTERVAL_MS and after a `link-state` event, drift vs FABSCOPE_EXPECTED_TOPOLOGY.
 */
export function liveTopologyFor(
  config: ApiConfig,
  fabric: Fabric,
  events: EventLog | undefined,
  options: {
    tools?: DiscoveryTools | undefined;
    discover?: (() => Promise<Fabric>) | undefined;
    onDiscovered?: ((snapshot: TopologySnapshot, timeMs: number) => void) | undefined;
    now?: () => number;
  } = {},
): { live: LiveTopology; stop: () => Promise<void> } {
  const settings = config.topologyLive;
  const now = options.now ?? Date.now;
  const loadedSnapshot = topologySnapshot(fabric);
  const versions = new TopologyVersions(loadedSnapshot, {
    nowMs: now(),
    maxVersions: settings.maxVersions,
    dir: config.eventsDir,
  });
  const discover =
    options.discover ??
    (config.fabricSource === 'infiniband'
      ? options.tools?.subnets && options.tools.subnets.length > 0
        ? discoverSubnets(fabric.name, options.tools.subnets, {
            nodeNames: config.nodeNames,
            ...options.tools,
          })
        : ibnetdiscoverPorts(fabric.name, { nodeNames: config.nodeNames, ...options.tools })
      : undefined);
  const path = settings.expectedPath;
  const expected = !path
    ? undefined
    : {
        file: basename(path),
        snapshot: topologySnapshot(
          parsedFile('FABSCOPE_EXPECTED_TOPOLOGY', path, (text) =>
            parseTopology(text, { name: basename(path), nodeNames: config.nodeNames }),
          ),
        ),
        tracker: new DriftTracker(settings.driftStableSeconds * 1000),
      };
  const live = new LiveTopology({
    loaded: fabric,
    loadedSnapshot,
    versions,
    discover,
    intervalMs: settings.discoverIntervalMs,
    events,
    expected,
    onDiscovered: options.onDiscovered,
    now,
  });
  // A port that changes state may be a cable pulled, plugged or moved: discover soon.
  const unwatch =
    discover && events
      ? afterAppend(events, (e) => (e.kind === 'link-state' ? live.prompt() : undefined))
      : () => {};
  return {
    live,
    stop: async () => {
      unwatch();
      await live.stop();
    },
  };
}
