import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startSnmpsimAgent } from '@fabscope/lab';

export { freeUdpPort } from '@fabscope/lab';

const run = promisify(execFile);

/** snmpsim serving recordings on a loopback UDP port: one data file per community. */
export interface Snmpsim {
  port: number;
  /** Where the agent reads `<community>.snmprec`: a recording rewritten there is served after `restart()`. */
  dataDir: string;
  /** Stops the agent and starts it again on the same port: counters and sysUpTime begin again. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** snmpbulkwalk's lines for `oid`, numeric OIDs, enums as numbers, strings as hex. */
export async function snmpbulkwalk(
  port: number,
  community: string,
  oid: string,
): Promise<Map<string, string>> {
  const { stdout } = await run('snmpbulkwalk', [
    '-v2c',
    '-c',
    community,
    '-Oqn',
    '-Oe',
    '-Ox',
    `127.0.0.1:${port}`,
    oid,
  ]);
  const values = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const m = /^\.(\S+) (.*)$/.exec(line);
    if (!m) continue;
    const raw = m[2] as string;
    const hex = /^"([0-9A-F ]*)"$/.exec(raw);
    values.set(
      m[1] as string,
      hex ? Buffer.from((hex[1] as string).replaceAll(' ', ''), 'hex').toString('utf8') : raw,
    );
  }
  return values;
}

/**
 * snmpsimd (packages/lab's launcher) serving copies of `recordings` (community or v3 context → .snmprec path) from a
 * temporary directory, removed when it stops; ready once `probe` answers.
 */
export async function startSnmpsim(
  recordings: Record<string, string>,
  probe: string,
  args: readonly string[] = [],
): Promise<Snmpsim> {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-snmpsim-'));
  chmodSync(dir, 0o755);
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir, { mode: 0o755 });
  for (const [community, file] of Object.entries(recordings)) {
    copyFileSync(file, join(dataDir, `${community}.snmprec`));
    chmodSync(join(dataDir, `${community}.snmprec`), 0o644);
  }
  try {
    const agent = await startSnmpsimAgent({ dataDir, cacheDir: join(dir, 'cache'), probe, args });
    return {
      port: agent.port,
      dataDir,
      restart: agent.restart,
      stop: async () => {
        await agent.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
