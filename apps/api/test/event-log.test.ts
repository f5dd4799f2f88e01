import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FabricEvent, FileEventLog, MemoryEventLog } from '../src/events/event-log.ts';
import { describeChange } from '../src/events/recording-emulator.ts';

const event = (timeMs: number, detail = `e${timeMs}`): FabricEvent => ({
  timeMs,
  kind: 'fault',
  subject: 'edge1/4--core2/1',
  detail,
});

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

  it('describe a settings change field by field, old → new', () => {
    expect(describeChange({ enabled: false, threshold: 0 }, { enabled: true, threshold: 7 })).toBe(
      'enabled false → true, threshold 0 → 7',
    );
    expect(describeChange({ enabled: true }, { enabled: true })).toBe('');
    expect(describeChange(null, { enabled: true })).toBe('enabled ? → true');
  });
});
