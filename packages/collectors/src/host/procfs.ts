import type { ExpositionWriter } from '../exposition/writer.ts';
import type { TreeReader } from './reader.ts';

/** Linux reports /proc/stat CPU times in USER_HZ ticks, 100 per second on every architecture. */
const USER_HZ = 100;
const MODES = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal'] as const;

/** `/proc/stat` per-CPU times → node_cpu_seconds_total{cpu,mode} and node_cpu_guest_seconds_total. */
export function collectCpu(reader: TreeReader, out: ExpositionWriter): void {
  const text = reader.text('stat');
  if (text === null) return;
  for (const line of text.split('\n')) {
    const match = line.match(/^cpu(\d+)\s+(.*)$/);
    if (!match) continue;
    const cpu = match[1] as string;
    const fields = (match[2] as string).trim().split(/\s+/).map(Number);
    MODES.forEach((mode, i) => {
      const ticks = fields[i];
      if (ticks === undefined || !Number.isFinite(ticks)) return;
      out.counter(
        'node_cpu_seconds_total',
        'Seconds the CPUs spent in each mode.',
        { cpu, mode },
        ticks / USER_HZ,
      );
    });
    const guest = [fields[8], fields[9]];
    guest.forEach((ticks, i) => {
      if (ticks === undefined || !Number.isFinite(ticks)) return;
      out.counter(
        'node_cpu_guest_seconds_total',
        'Seconds the CPUs spent in guests (VMs) for each mode.',
        { cpu, mode: i === 0 ? 'user' : 'nice' },
        ticks / USER_HZ,
      );
    });
  }
}

/** `/proc/meminfo` → node_memory_<Field>_bytes (kB × 1024) or node_memory_<Field> for counts. */
export function collectMeminfo(reader: TreeReader, out: ExpositionWriter): void {
  const text = reader.text('meminfo');
  if (text === null) return;
  for (const line of text.split('\n')) {
    const match = line.match(/^([^:\s]+):\s+(\d+)(?:\s+(kB))?\s*$/);
    if (!match) continue;
    const key = (match[1] as string).replace('(', '_').replace(')', '');
    const value = Number(match[2]);
    if (match[3]) {
      out.gauge(`node_memory_${key}_bytes`, `Memory information field ${key}_bytes.`, {}, value * 1024);
    } else {
      out.gauge(`node_memory_${key}`, `Memory information field ${key}.`, {}, value);
    }
  }
}
