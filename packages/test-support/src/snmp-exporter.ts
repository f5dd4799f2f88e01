import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './node-exporter.ts';

/** Debian's prometheus-snmp-exporter (0.21), which the SNMP source's tests and bench compare against. */
export const SNMP_EXPORTER = '/usr/bin/prometheus-snmp-exporter';

/** The if_mib module fabscope ships for snmp_exporter (Debian ships no MIBs to generate one from). */
export const SNMP_EXPORTER_CONFIG = new URL('../../../deploy/snmp-exporter/snmp.yml', import.meta.url)
  .pathname;

export interface RunningSnmpExporter {
  /** `http://127.0.0.1:PORT`: scrape `${base}/snmp?target=HOST:PORT&module=NAME`. */
  base: string;
  /** Its process id: the bench reads its CPU time. */
  pid: number;
  stop(): Promise<void>;
}

/** A real snmp_exporter on a free loopback port with `config`, once its /metrics answers. */
export async function startSnmpExporter(config = SNMP_EXPORTER_CONFIG): Promise<RunningSnmpExporter> {
  const port = await freePort();
  const child = spawn(
    SNMP_EXPORTER,
    [`--config.file=${config}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=error'],
    { stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${port}`;
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && child.exitCode === null) {
    if ((await fetch(`${base}/metrics`).catch(() => null))?.ok)
      return { base, pid: child.pid as number, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`snmp_exporter did not answer at ${base} (exit code ${child.exitCode})`);
}
