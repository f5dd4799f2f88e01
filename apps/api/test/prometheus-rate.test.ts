import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { durationMs } from '../src/lib/time-params.ts';
import { rateQuery } from '../src/store/rate-window.ts';

/**
 * The store's rate query evaluated by Prometheus's own engine (`promtool test rules`), scraped
 * every second at 1000/s: a counter that starts at 0, one that is reset, and one whose Prometheus
 * stopped for 3 s and came back. Every rate it gives is the true 1000/s; while a window is not
 * full it gives none (unknown), never a low value.
 */
const SERIES = {
  // New counter: first sample at 10 s.
  new: '_x10 0+1000x30',
  // Reset (a clear) at 13 s.
  reset: '0+1000x12 500+1000x20',
  // First scraped at 10 s (Prometheus started with the counter already high), down 16–18 s.
  restart: '_x10 50000+1000x5 _x3 59000+1000x20',
};
/** promtool expectations at `t` seconds: `samples` is the list under exp_samples. */
function check(expr: string, t: number, samples: string[] = []): string {
  const list = samples.length ? `\n${samples.map((s) => `          - ${s}`).join('\n')}` : ' []';
  return `      - expr: '${expr}'\n        eval_time: ${t}s\n        exp_samples:${list}`;
}

describe('the Prometheus store reads a rate only over a full window', () => {
  it('gives the true rate or none: after a start, a reset, and a Prometheus outage', async () => {
    const names = Object.keys(SERIES).map((k) => `${k}_total`);
    const rate = rateQuery(names, '5s');
    const tests = [];
    // Never a rate other than the true 1000/s, at any moment.
    for (let t = 6; t <= 32; t++) tests.push(check(`abs((${rate}) - 1000) > 0.001`, t));
    // Known again once windows are full: every series at 30 s.
    tests.push(check(`count(${rate})`, 30, ["labels: '{}'\n            value: 3"]));
    // The plain rate() reads the new counter low at 12 s (what the guard is for).
    tests.push(check(`rate(new_total[5s])`, 12, [`labels: '{port="new"}'\n            value: 400`]));
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-promtool-'));
    try {
      writeFileSync(join(dir, 'empty.yml'), 'groups: []\n');
      const inputs = Object.entries(SERIES).map(
        ([k, values]) => `      - series: '${k}_total{port="${k}"}'\n        values: '${values}'`,
      );
      writeFileSync(
        join(dir, 'test.yml'),
        `rule_files: [empty.yml]\nevaluation_interval: 1s\ntests:\n  - interval: 1s\n    input_series:\n${inputs.join('\n')}\n    promql_expr_test:\n${tests.join('\n')}\n`,
      );
      const result = await promisify(execFile)('promtool', ['test', 'rules', 'test.yml'], { cwd: dir }).then(
        ({ stdout }) => ({ ok: true, out: stdout }),
        (error: { stdout?: string; stderr?: string }) => ({
          ok: false,
          out: `${error.stdout}${error.stderr}`,
        }),
      );
      expect(result.out).toMatch(/SUCCESS/);
      expect(result.ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads PromQL durations', () => {
    expect(durationMs('5s')).toBe(5000);
    expect(durationMs('500ms')).toBe(500);
    expect(durationMs('1m30s')).toBe(90_000);
    expect(() => durationMs('5 s')).toThrow(/duration/);
  });
});
