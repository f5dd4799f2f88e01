import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from '@fabscope/api/config';
import {
  applyIbroute,
  buildForwardingTables,
  chooseRoutingEngine,
  type Fabric,
  type ForwardingTables,
  fatTreeForRadix,
  isRoutingEngine,
  type NodeNameMap,
  NoRouteError,
  ParseError,
  PatternError,
  parseTopology,
  parsingFile,
  type RoutingEngineName,
  RoutingError,
  scenarioInfo,
  TOPOLOGY_FORMATS,
  type TopologyFormat,
  UnknownNodeError,
} from '@fabscope/topology';

/** Bad command-line input: printed without a stack, exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Options every fabric-reading command shares. */
export const FABRIC_OPTIONS = {
  scenario: { type: 'string' },
  topology: { type: 'string' },
  format: { type: 'string' },
  routing: { type: 'string' },
  ibroute: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
} as const;

export interface FabricSelection {
  scenario?: string | undefined;
  topology?: string | undefined;
  format?: string | undefined;
  routing?: string | undefined;
  ibroute?: string[] | undefined;
  /** The site's names by GUID (FABSCOPE_NODE_NAME_MAP), over a topology file's NodeDescriptions. */
  nodeNames?: NodeNameMap | undefined;
}

export interface LoadedFabric {
  fabric: Fabric;
  tables: ForwardingTables;
  /** The engine chosen for it, which the emulator's fabric manager reruns at each sweep. */
  engine: RoutingEngineName | 'auto';
  routingMs: number;
}

function readUserFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

/** Reads a topology file (ibnetdiscover, ibsim, `ibnetdiscover -p`, opareport XML), auto-detected unless `format` says. */
function loadTopologyFile(path: string, format?: string, nodeNames?: NodeNameMap): Fabric {
  if (
    format !== undefined &&
    format !== 'auto' &&
    !(TOPOLOGY_FORMATS as readonly string[]).includes(format)
  ) {
    throw new UsageError(`--format must be one of ${TOPOLOGY_FORMATS.join(', ')}, got "${format}"`);
  }
  const text = readUserFile(path);
  return parsingFile(path, () =>
    parseTopology(text, {
      format: (format ?? 'auto') as TopologyFormat | 'auto',
      name: basename(path),
      nodeNames,
    }),
  );
}

/** --routing checked, then the one engine decision (chooseRoutingEngine). */
function routingEngine(
  value: string | undefined,
  scenarioEngine?: RoutingEngineName,
): RoutingEngineName | 'auto' {
  if (value !== undefined && !isRoutingEngine(value))
    throw new UsageError(`--routing must be minhop, fattree or auto, got "${value}"`);
  return chooseRoutingEngine(value, scenarioEngine);
}

/** `fabric` with its forwarding tables, timed. */
function routed(fabric: Fabric, engine: RoutingEngineName | 'auto'): LoadedFabric {
  const started = performance.now();
  const tables = buildForwardingTables(fabric, engine);
  return { fabric, tables, engine, routingMs: performance.now() - started };
}

/** The fabric named by --scenario or --topology, routed by --routing, with --ibroute dumps applied. */
export function loadFabric(selection: FabricSelection): LoadedFabric {
  if ((selection.scenario === undefined) === (selection.topology === undefined)) {
    throw new UsageError('give exactly one of --scenario NAME or --topology FILE');
  }
  const scenario = selection.scenario === undefined ? undefined : scenarioInfo(selection.scenario);
  const fabric = scenario
    ? scenario.build()
    : loadTopologyFile(selection.topology as string, selection.format, selection.nodeNames);
  const loaded = routed(fabric, routingEngine(selection.routing, scenario?.routing));
  for (const file of selection.ibroute ?? []) {
    const text = readUserFile(file);
    const current = loaded.tables;
    loaded.tables = parsingFile(file, () => applyIbroute(fabric, current, text));
  }
  return loaded;
}

/** The fabric a server runs on: FABSCOPE_TOPOLOGY's file if set, else FABSCOPE_SCENARIO, routed by FABSCOPE_ROUTING. */
export function fabricFromConfig(config: {
  scenario: string;
  topologyPath?: string | undefined;
  routing?: RoutingEngineName | 'auto' | undefined;
  nodeNames?: NodeNameMap | undefined;
}): LoadedFabric {
  const selection =
    config.topologyPath === undefined ? { scenario: config.scenario } : { topology: config.topologyPath };
  try {
    return loadFabric({ ...selection, routing: config.routing, nodeNames: config.nodeNames });
  } catch (error) {
    // A server refusing its topology file says why in one line, not with a stack.
    if (error instanceof ParseError || error instanceof UsageError) throw new ConfigError(error.message);
    throw error;
  }
}

/** Counts of a fabric as `topology generate|parse` print them. */
function fabricSummary(fabric: Fabric) {
  const count = <T>(items: readonly T[], test: (item: T) => boolean) => items.filter(test).length;
  const hosts = count(fabric.nodes, (n) => n.type === 'host');
  const routers = fabric.nodes.filter((n) => n.type === 'router');
  const linksByRateGbps: Record<string, number> = {};
  for (const l of fabric.links) linksByRateGbps[l.rateGbps] = (linksByRateGbps[l.rateGbps] ?? 0) + 1;
  return {
    name: fabric.name,
    fabricType: fabric.fabricType,
    hosts,
    switches: count(fabric.nodes, (n) => n.type === 'switch'),
    routers: routers.length,
    // A router carries one adapter per network it joins.
    adapters: routers.reduce(
      (sum, r) =>
        sum +
        Math.max(
          1,
          count(r.ports, (p) => !!p && p.link >= 0),
        ),
      hosts,
    ),
    links: fabric.links.length,
    isls: count(fabric.links, (l) => l.kind === 'isl'),
    uncabledPorts: fabric.nodes.reduce((sum, n) => sum + count(n.ports, (p) => !!p && p.link < 0), 0),
    linksByRateGbps,
  };
}

/** Runs a command body, turning input errors into one-line messages and an exit status. */
export async function withInputErrors(body: () => void | Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    const usage = error instanceof UsageError || (error instanceof TypeError && 'code' in error);
    const input =
      [ParseError, RoutingError, PatternError, UnknownNodeError, NoRouteError].some(
        (k) => error instanceof k,
      ) ||
      (error instanceof Error && /^unknown scenario/.test(error.message));
    if (!usage && !input) throw error;
    process.stderr.write(`fabscope: ${(error as Error).message}\n`);
    process.exitCode = usage ? 2 : 1;
  }
}

const USAGE = `usage:
  fabscope topology generate (--scenario NAME | --radix N --tiers 2|3 [--oversubscription R] [--trunks T] [--hosts N])
                             [--routing minhop|fattree|auto] [--json]
  fabscope topology parse FILE [--format ibnetdiscover|ibnetdiscover-ports|opareport] [--routing …] [--json]
`;

/** `fabscope topology generate|parse`. */
export function topologyCommand(args: string[]): Promise<void> {
  return withInputErrors(() => {
    const [sub, ...rest] = args;
    if (sub === 'generate') return generate(rest);
    if (sub === 'parse') return parse(rest);
    throw new UsageError(`topology needs generate or parse\n${USAGE}`);
  });
}

function generate(args: string[]): void {
  const { values } = parseArgs({
    args,
    options: {
      ...FABRIC_OPTIONS,
      radix: { type: 'string' },
      tiers: { type: 'string' },
      oversubscription: { type: 'string' },
      trunks: { type: 'string' },
      hosts: { type: 'string' },
    },
  });
  if (values.radix === undefined) {
    if (values.scenario === undefined) throw new UsageError(`give --scenario NAME or --radix N\n${USAGE}`);
    print(loadFabric({ scenario: values.scenario, routing: values.routing }), values.json);
    return;
  }
  if (values.scenario !== undefined) throw new UsageError('give --scenario or --radix, not both');
  const number = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${value}"`);
    return n;
  };
  const tiers = values.tiers === undefined ? 2 : number('tiers', values.tiers);
  if (tiers !== 2 && tiers !== 3) throw new UsageError('--tiers must be 2 or 3');
  let fabric: Fabric;
  try {
    fabric = fatTreeForRadix({
      radix: number('radix', values.radix) as number,
      tiers,
      oversubscription: number('oversubscription', values.oversubscription),
      islsPerPair: number('trunks', values.trunks),
      hostCount: number('hosts', values.hosts),
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  print(routed(fabric, routingEngine(values.routing)), values.json);
}

function parse(args: string[]): void {
  const { values, positionals } = parseArgs({ args, options: FABRIC_OPTIONS, allowPositionals: true });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError(`topology parse takes one FILE\n${USAGE}`);
  print(routed(loadTopologyFile(file, values.format), routingEngine(values.routing)), values.json);
}

function print({ fabric, tables, routingMs }: LoadedFabric, json: boolean | undefined): void {
  const summary = {
    ...fabricSummary(fabric),
    engine: tables.engine,
    routingMs: Math.round(routingMs * 10) / 10,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    return;
  }
  for (const [key, value] of Object.entries(summary)) {
    process.stdout.write(
      `${key.padEnd(16)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}\n`,
    );
  }
}
