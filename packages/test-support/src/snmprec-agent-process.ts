// The fast simulated switches in a process of their own, so a benchmark's reader does not share their event loop.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('./snmprec-agent-main.ts', import.meta.url));

/** Agents serving recordings from a child process: community → UDP port on 127.0.0.1. */
export interface SnmprecAgentProcess {
  ports: Map<string, number>;
  /** The agents' process id: the bench reads its CPU time. */
  pid: number;
  stop(): Promise<void>;
}

/** Starts a Node process serving each recording (community → .snmprec path) on its own UDP port. */
export async function startSnmprecAgents(recordings: Record<string, string>): Promise<SnmprecAgentProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN, JSON.stringify(recordings)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the snmprec agents exited with ${code} before serving`)));
  });
  const ports = new Map<string, number>(Object.entries(JSON.parse(first) as Record<string, number>));
  return {
    ports,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
