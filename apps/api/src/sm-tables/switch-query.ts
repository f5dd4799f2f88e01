import { type ExecFileException, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Fabric } from '@fabscope/topology';
import type { SmTablesRead, SmTablesSource } from './source.ts';

export interface SwitchQueryOptions {
  /** `ibroute`: one `ibroute -n <lid>` per switch of the topology; `dump_fts`: one `dump_fts -n`. */
  tool: 'ibroute' | 'dump_fts';
  /** Environment of the tool (default this process's): the lab's LD_PRELOAD and IBSIM_SOCKNAME. */
  env?: NodeJS.ProcessEnv;
  /** Working directory of the tool: under the lab's umad2sim preload every run writes a fake sysfs there. */
  cwd?: string;
  /** The program; default the tool's name, from PATH. */
  command?: string;
  /** Longest one run may take (ms); default 10 s for ibroute, 120 s for dump_fts. */
  timeoutMs?: number;
  /** ibroute runs at once; default 4. */
  concurrency?: number;
  /** Arguments that pick the local port of the subnet (`-C mlx5_1 -P 1`). */
  portArgs?: readonly string[];
  /** Where the fabric holds several subnets: the one read (its switches only; FabricNode.subnet). */
  subnet?: string;
}

const execFileAsync = promisify(execFile);

/** Most bytes of output read from one run: every LID of every switch of a large fabric fits. */
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

/**
 * The switches' forwarding tables read with infiniband-diags (`ibroute -n`, `dump_fts -n`, no shell),
 * in the format `applyIbroute` reads; an ibroute switch that fails is reported in `failed`, never filled in.
 */
export class SwitchTablesQuery implements SmTablesSource {
  readonly from: 'ibroute' | 'dump_fts';
  private readonly command: string;
  private readonly timeoutMs: number;

  constructor(
    private fabric: Fabric,
    private readonly options: SwitchQueryOptions,
  ) {
    this.from = options.tool;
    this.command = options.command ?? options.tool;
    this.timeoutMs = options.timeoutMs ?? (options.tool === 'ibroute' ? 10_000 : 120_000);
  }

  useFabric(fabric: Fabric): void {
    this.fabric = fabric;
  }

  async read(): Promise<SmTablesRead> {
    if (this.from === 'dump_fts') return { kind: 'dump', text: await this.run(['-n']) };
    const { subnet } = this.options;
    const switches = this.fabric.nodes.filter(
      (n) => n.type === 'switch' && (subnet === undefined || n.subnet === subnet),
    );
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
    await Promise.all(
      Array.from({ length: Math.min(Math.max(1, this.options.concurrency ?? 4), switches.length) }, worker),
    );
    if (failed.size === switches.length && switches.length > 0) {
      throw new Error(`ibroute failed on every switch: ${[...failed.values()][0]}`);
    }
    return { kind: 'dump', text: texts.join('\n'), failed };
  }

  private async run(toolArgs: string[]): Promise<string> {
    const { env = process.env, cwd } = this.options;
    const args = [...(this.options.portArgs ?? []), ...toolArgs];
    const options = {
      env,
      cwd,
      timeout: this.timeoutMs,
      maxBuffer: MAX_OUTPUT_BYTES,
      encoding: 'utf8',
    } as const;
    try {
      return (await execFileAsync(this.command, args, options)).stdout;
    } catch (e) {
      const error = e as ExecFileException & { stderr: string };
      const said = error.stderr
        .split('\n')
        .map((l) => l.trim())
        .find((l) => /iberror|error|failed/i.test(l) && !/^ibwarn/.test(l));
      const why = error.killed ? `timed out after ${this.timeoutMs} ms` : (said ?? error.message);
      throw new Error(`${this.command} ${args.join(' ')}: ${why}`);
    }
  }
}
