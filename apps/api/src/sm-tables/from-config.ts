import type { LftsConfig } from '../config/site-files.ts';
import type { EventLog } from '../events/event-log.ts';
import { type SmRoutedFabric, SmTablesFollower } from './follower.ts';
import { LftsDumpFile } from './lfts-file.ts';
import { SwitchTablesQuery } from './switch-query.ts';

/** Longest the start waits for the first read (a tool querying every switch may take longer). */
const FIRST_READ_MS = 10_000;

/** The follower of FABSCOPE_LFTS' tables, its first read done (or under way after FIRST_READ_MS). */
export async function smTablesFollowerFor(
  lfts: LftsConfig,
  target: SmRoutedFabric,
  events: EventLog | undefined,
  tools: { env?: NodeJS.ProcessEnv | undefined; cwd?: string | undefined } = {},
): Promise<SmTablesFollower> {
  const source =
    lfts.kind === 'file'
      ? new LftsDumpFile(lfts.path)
      : new SwitchTablesQuery(target.fabric, {
          tool: lfts.kind,
          ...(tools.env ? { env: tools.env } : {}),
          ...(tools.cwd ? { cwd: tools.cwd } : {}),
        });
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
