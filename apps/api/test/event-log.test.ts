import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type FabricEvent, FileEventLog, MemoryEventLog } from '../src/events/event-log.ts';
import { describeChange } from '../src/events/recording-emulator.ts';

const event = (timeMs: number, detail = `e${timeMs}`): FabricEvent => ({
  timeMs,
  kind: 'fault',
  subject: 'edge1/4--core2/1',
  detail,
});

/** Lines the writer has acknowledged so far (its acks file, written synchronously). */
function ackCount(acks: string): number {
  let count = 0;
  for (const byte of readFileSync(acks)) if (byte === 10) count++;
  return count;
}

describe('event logs', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'fabscope-events-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('keep the newest events in time order, bounded', () => {
    const log = new MemoryEventLog(3);
    for (const t of [1, 2, 4, 3, 5]) log.append(event(t));
    expect(log.list(0, 10).map((e) => e.timeMs)).toEqual([3, 4, 5]);
    expect(log.list(4, 4).map((e) => e.timeMs)).toEqual([4]);
  });

  it('in a file, survive a restart; a torn last line is skipped, the rest kept', () => {
    const d = dir();
    const first = new FileEventLog(d);
    first.append(event(1));
    first.append(event(2));
    appendFileSync(join(d, 'events.jsonl'), '{"timeMs":3,"kind":"fau');
    const second = new FileEventLog(d);
    expect(second.list(0, 10).map((e) => e.detail)).toEqual(['e1', 'e2']);
    second.append(event(4));
    expect(new FileEventLog(d).list(0, 10).map((e) => e.timeMs)).toEqual([1, 2, 4]);
  });

  it('in a file, stay bounded: rewritten with the newest once twice the limit', () => {
    const d = dir();
    const log = new FileEventLog(d, 10);
    for (let t = 1; t <= 45; t++) log.append(event(t));
    const lines = readFileSync(join(d, 'events.jsonl'), 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(new FileEventLog(d, 10).list(0, 100).map((e) => e.timeMs)).toEqual([
      36, 37, 38, 39, 40, 41, 42, 43, 44, 45,
    ]);
  });

  it('in a file, lose nothing when a compaction stops before its rename', () => {
    const d = dir();
    const log = new FileEventLog(d, 10);
    for (let t = 1; t <= 19; t++) log.append(event(t));
    const before = readFileSync(join(d, 'events.jsonl'), 'utf8');
    // What a compaction killed after writing (part of) its new file leaves: a temporary file of a
    // process that is gone, beside the old file, which is still whole.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    const temp = join(d, `.events.jsonl.${gone}.0a1b2c3d.tmp`);
    writeFileSync(temp, before.split('\n').slice(9, 14).join('\n'));
    const after = new FileEventLog(d, 10);
    expect(after.list(0, 100).map((e) => e.timeMs)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(existsSync(temp)).toBe(false);
    expect(readFileSync(join(d, 'events.jsonl'), 'utf8')).toBe(before);
    // The next compaction replaces the file whole, and leaves no temporary file.
    after.append(event(20));
    after.append(event(21));
    expect(readdirSync(d)).toEqual(['events.jsonl']);
    expect(new FileEventLog(d, 10).list(0, 100).map((e) => e.timeMs)).toEqual([
      12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    ]);
  });

  it('in a file, lose nothing when the process is killed (SIGKILL) at any point, compactions included', async () => {
    const d = dir();
    const writer = fileURLToPath(new URL('./fixtures/event-log-writer.ts', import.meta.url));
    const maxEvents = 40;
    let acknowledged: number[] = [];
    let from = 0;
    for (let run = 0; run < 4; run++) {
      const acks = join(d, 'acks');
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', writer, d, acks, String(from), String(maxEvents)],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      while (!out.includes('ready\n')) {
        if (child.exitCode !== null) throw new Error(`the writer exited with ${child.exitCode}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Several compactions (one per 40 appends) acknowledged, cut at a different point each run.
      const enough = (3 + run) * maxEvents + 7 * run;
      while (ackCount(acks) < enough) {
        if (child.exitCode !== null) throw new Error(`the writer exited with ${child.exitCode}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      child.kill('SIGKILL');
      await exited;
      acknowledged = readFileSync(acks, 'utf8')
        .split('\n')
        .filter((line) => /^\d+$/.test(line))
        .map(Number);
      expect(acknowledged.length).toBeGreaterThan(2 * maxEvents);
      const kept = new FileEventLog(d, maxEvents).list(0, Number.POSITIVE_INFINITY).map((e) => e.timeMs);
      // The newest maxEvents it had answered for, whatever it was doing when killed (and perhaps
      // the one it was appending then: written, not yet answered), none missing.
      const last = acknowledged.at(-1) as number;
      const written = kept.at(-1) === last + 1 ? [...acknowledged, last + 1] : acknowledged;
      expect(kept).toEqual(written.slice(-maxEvents));
      expect(readdirSync(d).filter((n) => n.endsWith('.tmp'))).toEqual([]);
      rmSync(acks);
      from = Math.max(...kept, ...acknowledged) + 1;
    }
  }, 30_000);

  it('describe a settings change field by field, old → new', () => {
    expect(describeChange({ enabled: false, threshold: 0 }, { enabled: true, threshold: 7 })).toBe(
      'enabled false → true, threshold 0 → 7',
    );
    expect(describeChange({ enabled: true }, { enabled: true })).toBe('');
    expect(describeChange(null, { enabled: true })).toBe('enabled ? → true');
  });
});
