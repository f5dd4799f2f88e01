import type { Emulator } from '../emulator.ts';
import { SysfsFiles } from './atomic-files.ts';
import { namePorts, writeClasses } from './class-files.ts';
import { writeProc } from './proc-files.ts';

/** Live sysfs and procfs trees per host in the kernel's formats, so node_exporter reads them unchanged. */
export interface SysfsWriterOptions {
  /** Default 1000 ms. */
  intervalMs?: number;
  /** Only these hosts and routers (default all). */
  hosts?: string[];
}

export interface SysfsWriter {
  /** Writes every tree now (also done every interval). */
  writeNow(): void;
  stop(): void;
}

export function startSysfsWriter(
  emulator: Emulator,
  dir: string,
  options: SysfsWriterOptions = {},
): SysfsWriter {
  const { intervalMs = 1000 } = options;
  if (!(intervalMs >= 10)) throw new RangeError(`intervalMs must be ≥ 10, got ${intervalMs}`);
  const only = options.hosts ? new Set(options.hosts) : null;
  const files = new SysfsFiles(dir);
  const writeNow = () => {
    for (const host of emulator.hostTelemetry()) {
      if (only && !only.has(host.name)) continue;
      const ports = namePorts(host);
      writeClasses(files, host, ports);
      writeProc(files, emulator.nowMs(), host, ports);
    }
  };
  writeNow();
  const timer = setInterval(() => {
    try {
      writeNow();
    } catch (error) {
      process.stderr.write(`fabscope emulator: writing ${dir} failed: ${(error as Error).message}\n`);
    }
  }, intervalMs);
  timer.unref();
  return { writeNow, stop: () => clearInterval(timer) };
}
