import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const BUILD = new URL('./fake-target/build.mjs', import.meta.url).pathname;

/** The fake target's binary, built into the user's cache when missing (fails naming Go when it cannot be). */
export function fakeTargetBinary(): string {
  const out = execFileSync(process.execPath, [BUILD], { encoding: 'utf8', timeout: 600_000 });
  return out.trim().split('\n').at(-1) as string;
}

/** One leaf the fake target streams: a path (the deprecated `element` form it sends) and a value generator. */
export interface FakeLeaf {
  path: string[];
  /** A counter that advances by `step` every `everyMs`, a fixed string, or a fixed string that is not a counter. */
  value: { counter: number; step: number } | { text: string };
}

export interface FakeConfig {
  leaves: FakeLeaf[];
  everyMs: number;
  credentials?: { username: string; password: string };
}

/** The text fake.proto Config the module's fake client generates from: every leaf repeats forever, paced. */
export function fakeConfigText(config: FakeConfig): string {
  const stepNs = config.everyMs * 1_000_000;
  const values = config.leaves.map((leaf) => {
    const path = leaf.path.map((p) => JSON.stringify(p)).join(', ');
    const value =
      'counter' in leaf.value
        ? `uint_value: { value: ${leaf.value.counter} range: { minimum: 0 maximum: 9223372036854775807 ` +
          `delta_min: ${leaf.value.step} delta_max: ${leaf.value.step} } }`
        : `string_value: { value: ${JSON.stringify(leaf.value.text)} }`;
    return `values: { path: [${path}] timestamp: { timestamp: 1 delta_min: ${stepNs} delta_max: ${stepNs} } repeat: 0 ${value} }`;
  });
  const credentials = config.credentials
    ? `credentials: { username: ${JSON.stringify(config.credentials.username)} password: ${JSON.stringify(config.credentials.password)} }`
    : '';
  return ['target: "fake"', 'enable_delay: true', 'disable_eof: true', credentials, ...values].join('\n');
}

export interface FakeTarget {
  port: number;
  /** The self-signed certificate it serves (the CA to trust), when it serves TLS. */
  certFile: string | null;
  /** Kills the process (SIGKILL: a switch that vanishes) and waits for it to go. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same certificate: counters begin again, as after a reboot. */
  restart(): Promise<void>;
}

function waitForListening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-2000);
    });
    child.once('exit', (code) =>
      reject(new Error(`fake gNMI target exited (${code}) before listening: ${err}`)),
    );
  });
}

/** Starts the fake target on a free loopback port (the kernel's choice), TLS with a self-signed certificate when asked. */
export async function startFakeTarget(
  binary: string,
  dir: string,
  name: string,
  config: FakeConfig,
  tls: boolean,
): Promise<FakeTarget> {
  const configFile = join(dir, `${name}.pb.txt`);
  writeFileSync(configFile, fakeConfigText(config));
  const certFile = tls ? join(dir, `${name}.crt`) : null;
  let child: ChildProcess;
  const launch = async (addr: string) => {
    const args = ['-config', configFile, '-addr', addr];
    if (certFile) args.push('-cert', certFile, '-key', join(dir, `${name}.key`));
    child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    return waitForListening(child);
  };
  const port = await launch('127.0.0.1:0');
  const target: FakeTarget = {
    port,
    certFile,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
    async restart() {
      await target.kill();
      await launch(`127.0.0.1:${port}`);
    },
  };
  return target;
}
