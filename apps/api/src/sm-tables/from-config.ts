import type { Fabric } from '@fabscope/topology';
import type { LftsConfig } from '../config/site-files.ts';
import { ConfigError } from '../errors.ts';
import type { EventLog } from '../events/event-log.ts';
import { type FabricTools, type IbSubnet, subnetTools } from '../topology-live/subnets.ts';
import { type SmRoutedFabric, SmTablesFollower } from './follower.ts';
import { LftsDumpFile } from './lfts-file.ts';
import type { SmTablesSource } from './source.ts';
import { SubnetsTables } from './subnets-tables.ts';
import { SwitchTablesQuery } from './switch-query.ts';

/** Longest the start waits for the first read (a tool querying every switch may take longer). */
const FIRST_READ_MS = 10_000;

/** One subnet's tables: its own dump file where it has one, else its switches asked through its port. */
function subnetSource(
  lfts: LftsConfig,
  fabric: Fabric,
  subnet: IbSubnet,
  tools: FabricTools,
): SmTablesSource {
  if (subnet.lftsPath) return new LftsDumpFile(subnet.lftsPath);
  if (lfts.kind === 'file') {
    throw new ConfigError(
      `FABSCOPE_LFTS names one dump file, but ${tools.subnets?.length} subnets are watched: use dump_fts or ibroute (each subnet's switches are asked through its own port)`,
    );
  }
  const { args, env, cwd } = subnetTools(subnet, tools);
  return new SwitchTablesQuery(fabric, {
    tool: lfts.kind,
    env,
    portArgs: args,
    subnet: subnet.name,
    ...(cwd ? { cwd } : {}),
  });
}

/** Where FABSCOPE_LFTS' tables are read: one source, or one per subnet read together. */
function tablesSource(lfts: LftsConfig, fabric: Fabric, tools: FabricTools): SmTablesSource {
  const subnets = tools.subnets ?? [];
  if (subnets.length > 0) {
    return new SubnetsTables(
      subnets.map((s) => ({ name: s.name, source: subnetSource(lfts, fabric, s, tools) })),
    );
  }
  return lfts.kind === 'file'
    ? new LftsDumpFile(lfts.path)
    : new SwitchTablesQuery(fabric, {
        tool: lfts.kind,
        ...(tools.env ? { env: tools.env } : {}),
        ...(tools.cwd ? { cwd: tools.cwd } : {}),
      });
}

/** The follower of FABSCOPE_LFTS' tables, its first read done (or under way after FIRST_READ_MS). */
export async function smTablesFollowerFor(
  lfts: LftsConfig,
  target: SmRoutedFabric,
  events: EventLog | undefined,
  tools: FabricTools = {},
): Promise<SmTablesFollower> {
  const source = tablesSource(lfts, target.fabric, tools);
  const follower = new SmTablesFollower(target, source, { intervalMs: lfts.intervalMs, events });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    follower.refresh(),
    new Promise((resolve) => {
      timer = setTimeout(resolve, FIRST_READ_MS);
    }),
  ]);
  clearTimeout(timer);
  follower.start();
  return follower;
}
