import { execFile } from 'node:child_process';
import type { Fabric } from '@fabscope/topology';
import type { SmTablesRead, SmTablesSource } from './source.ts';

export interface SwitchQueryOptions {
  /** `ibroute`: one `ibroute -n <lid>` per switch of the topology; `dump_fts`: one `dump_fts -n`. */
  tool: 'ibroute' | 'dump_fts';
  /** Environment of the tool (default this process's): the lab's LD_PRELOAD and IBSIM_SOCKNAME. */
  env?: NodeJS.ProcessEnv;
  /**
   * Working directory of the tool (default this process's). Under the lab's umad2sim preload every
   * run writes a fake sysfs into it (`./sys-<pid>`): on a tmpfs that costs ~3 ms, on disk 10–60.
   */
  cwd?: string;
  /** The program; default the tool's name, from PATH. */
  command?: string;
  /** Longest one run may take (ms); default 10 s for ibroute, 120 s for dump_fts. */
  timeoutMs?: number;
  /** ibroute runs at once; default 4. */
  concurrency?: number;
}

/** Most bytes of output read from one run: 49,151 LIDs of every switch of a large fabric fit. */
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

/**
 * The switches' linear forwarding tables as the switches hold them, read with infiniband-diags
 * (`ibroute`, `dump_fts`; run without a shell, in `env`). `-n` skips resolving each destination
 * (a NodeDescription query per LID). Both print the format `applyIbroute` reads. With ibroute, a
 * switch whose query fails is reported in `failed`, so it is said to be missing, never filled in.
 */
export class SwitchTablesQuery implements SmTablesSource {
  readonly from: 'ibroute' | 'dump_fts';
  private readonly env: NodeJS.ProcessEnv;
  private readonly cwd: string | undefined;
  private readonly command: string;
  private readonly timeoutMs: number;
  private readonly concurrency: number;

  constructor(
    private fabric: Fabric,
    options: SwitchQueryOptions,
  ) {
    this.from = options.tool;
    this.env = options.env ?? process.env;
    this.cwd = options.cwd;
    this.command = options.command ?? options.tool;
    this.timeoutMs = options.timeoutMs ?? (options.tool === 'ibroute' ? 10_000 : 120_000);
    this.concurrency = Math.max(1, options.concurrency ?? 4);
  }

  useFabric(fabric: Fabric): void {
    this.fabric = fabric;
  }

  async read(): Promise<SmTablesRead> {
    if (this.from === 'dump_fts') return { kind: 'dump', text: await this.run(['-n']) };
    const switches = this.fabric.nodes.filter((n) => n.type === 'switch');
    const texts: string[] = new Array(switches.length).fill('');
    const failed = new Map<string, string>();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < switches.length; i = next++) {
        const node = switches[i] as (typeof switches)[number];
        try {
          texts[i] = await this.run(['-n', String(node.lid)]);
        } catch (error) {
          failed.set(node.name, (error as Error).message);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, switches.length) }, worker));
    if (failed.size === switches.length && switches.length > 0) {
      throw new Error(`ibroute failed on every switch: ${[...failed.values()][0]}`);
    }
    return { kind: 'dump', text: texts.join('\n'), failed };
  }

  private run(args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        this.command,
        args,
        {
          env: this.env,
          cwd: this.cwd,
          timeout: this.timeoutMs,
          maxBuffer: MAX_OUTPUT_BYTES,
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const said = stderr
            .split('\n')
            .map((l) => l.trim())
            .find((l) => /iberror|error|failed/i.test(l) && !/^ibwarn/.test(l));
          const why = error.killed ? `timed out after ${this.timeoutMs} ms` : (said ?? error.message);
          reject(new Error(`${this.command} ${args.join(' ')}: ${why}`));
        },
      );
    });
  }
}
