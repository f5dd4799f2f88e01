import { startExporter } from './exporter-process.ts';

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
  return startExporter('snmp_exporter', SNMP_EXPORTER, (port) => [
    `--config.file=${config}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=error',
  ]);
}
