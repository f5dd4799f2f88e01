import { type ExecFileException, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Health } from '@fabscope/contracts';
import { clockTime } from '../events/collection-watch.ts';
import type { EventLog } from '../events/event-log.ts';
import { Poller } from '../poller.ts';
import { type FabricTools, type IbSubnet, subnetTools } from '../topology-live/subnets.ts';

/** Asks whether a subnet manager answers: resolves with what it said, rejects with why none did. */
export type SmProbe = (signal: AbortSignal) => Promise<string>;

export type SubnetManagerHealth = NonNullable<Health['subnetManager']>;

const execFileAsync = promisify(execFile);

/** Longest one `sminfo` may take: a master SM answers SubnGet(SMInfo) in milliseconds. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * `sminfo` (infiniband-diags, no shell): SubnGet(SMInfo) to the SM the port knows; its line ("sminfo: sm lid 1 sm guid
 * …, activity count … state 3 SMINFO_MASTER") when one answers.
 */
export function sminfoProbe(tools: FabricTools = {}): SmProbe {
  const subnets = tools.subnets ?? [];
  if (subnets.length > 0) return subnetsProbe(subnets, tools);
  return oneSminfoProbe({ args: [], env: tools.env ?? process.env, cwd: tools.cwd });
}

/** Every subnet's SM asked through its own port: present while each answers; the first silent one named. */
function subnetsProbe(subnets: readonly IbSubnet[], tools: FabricTools): SmProbe {
  const probes = subnets.map((s) => ({ name: s.name, probe: oneSminfoProbe(subnetTools(s, tools)) }));
  return async (signal) => {
    const said = await Promise.all(
      probes.map(({ name, probe }) =>
        probe(signal).then(
          (line) => `${name}: ${line}`,
          (error: Error) => {
            throw new Error(`subnet ${name}: ${error.message}`);
          },
        ),
      ),
    );
    return said.join('; ');
  };
}

function oneSminfoProbe(reach: { args: string[]; env: NodeJS.ProcessEnv; cwd: string | undefined }): SmProbe {
  return async (signal) => {
    try {
      const { stdout } = await execFileAsync('sminfo', reach.args, {
        env: reach.env,
        cwd: reach.cwd,
        timeout: PROBE_TIMEOUT_MS,
        signal,
        encoding: 'utf8',
      });
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (!/\bsm lid\b/.test(line)) throw new Error(line === '' ? 'sminfo answered nothing' : line);
      return line;
    } catch (e) {
      const error = e as ExecFileException & { stderr?: string };
      const said = (error.stderr ?? '')
        .split('\n')
        .map((l) => l.trim())
        .find((l) => /iberror|failed/i.test(l));
      throw new Error(
        error.killed ? `sminfo timed out after ${PROBE_TIMEOUT_MS} ms` : (said ?? error.message),
      );
    }
  };
}

export interface SmPresenceOptions {
  intervalMs: number;
  events?: EventLog | undefined;
  now?: () => number;
  /** Why the SM's tables cannot be read now, if they cannot (its absence too); undefined while they can. */
  tablesUnreadable?: () => string | undefined;
  /** Failed probes in a row before the SM counts as gone (one lost MAD is not an absence). */
  failuresToAbsent?: number;
}

/**
 * Whether a subnet manager answers, probed every interval: its absence (no SM answering SMInfo, or its tables
 * unreadable) is one `subnet-manager` event and a line in /health, its return another.
 */
export class SmPresenceWatch extends Poller {
  private state: SubnetManagerHealth = { state: 'unknown', since: null, detail: 'not asked yet' };
  private failures = 0;
  private firstFailureMs = 0;
  private readonly now: () => number;

  constructor(
    private readonly probe: SmProbe,
    private readonly options: SmPresenceOptions,
  ) {
    super(options.intervalMs);
    this.now = options.now ?? Date.now;
  }

  /** For /health. */
  health(): SubnetManagerHealth {
    return { ...this.state };
  }

  protected async poll(): Promise<boolean> {
    const at = this.now();
    let why: string | undefined;
    let said = '';
    try {
      said = await this.probe(AbortSignal.timeout(PROBE_TIMEOUT_MS * 2));
      why = this.options.tablesUnreadable?.();
      if (why !== undefined) why = `its tables cannot be read: ${why}`;
    } catch (error) {
      why = `no subnet manager answers SubnGet(SMInfo): ${(error as Error).message}`;
    }
    if (why === undefined) return this.present(at, said);
    if (this.failures === 0) this.firstFailureMs = at;
    this.failures++;
    if (this.failures < (this.options.failuresToAbsent ?? 2) || this.state.state === 'absent') return false;
    const since = this.firstFailureMs;
    this.state = { state: 'absent', since: new Date(since).toISOString(), detail: why };
    this.options.events?.append({
      timeMs: at,
      kind: 'subnet-manager',
      subject: 'fabric',
      severity: 'error',
      detail: `subnet manager gone since ${clockTime(since)}: ${why}; routes are the tables read before`,
    });
    return true;
  }

  private present(at: number, said: string): boolean {
    this.failures = 0;
    const was = this.state;
    this.state = {
      state: 'present',
      since: was.state === 'present' ? was.since : new Date(at).toISOString(),
      detail: said,
    };
    if (was.state !== 'absent') return false;
    const seconds = (at - Date.parse(was.since ?? '')) / 1000;
    this.options.events?.append({
      timeMs: at,
      kind: 'subnet-manager',
      subject: 'fabric',
      severity: 'info',
      detail: `subnet manager answers again after ${seconds.toFixed(0)} s: ${said}`,
    });
    return true;
  }
}
