import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompactSnapshot } from '../types.ts';
import { reportOf, type StreamReport } from './streamEvents.ts';
import { openStream } from './streamSource.ts';
import { buffersOf, returnOlderValues, type StreamWorkerCall, ValuesPool } from './valuesPool.ts';

const health = { status: 'ok', store: 'embedded', lastSampleAgeSeconds: 0.4, topologyVersion: 1 };
const summary = {
  time: '2025-01-01T00:00:00.000Z',
  hostTransmitBytesPerSecond: 1e9,
  histogram: { isl: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], host: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
};

/** A compact message of four channels whose values all read `v` (the wait absent on odd ticks). */
function message(v: number): string {
  return JSON.stringify({
    time: new Date(v * 1000).toISOString(),
    health,
    summary,
    utilization: [v, v, v, v],
    bytesPerSecond: [v, v, v, v],
    ...(v % 2 === 0 ? { waitFraction: [v, v, v, v] } : {}),
    top: [],
  });
}

function snapshotOf(report: StreamReport): CompactSnapshot {
  if (report.kind !== 'message') throw new Error(`not a message: ${report.kind}`);
  return report.snapshot as CompactSnapshot;
}

describe('ValuesPool (the worker side)', () => {
  it('gives a buffer handed back again as an array of its length, else a new one', () => {
    const pool = new ValuesPool();
    const first = pool.take(4);
    expect(first).toHaveLength(4);
    pool.give([first.buffer as ArrayBuffer]);
    expect(pool.size).toBe(1);
    expect(pool.take(5).buffer).not.toBe(first.buffer);
    const again = pool.take(4);
    expect(again.buffer).toBe(first.buffer);
    expect(pool.size).toBe(0);
  });

  it('ignores detached buffers and keeps no more than its limit', () => {
    const pool = new ValuesPool(2);
    const detached = new ArrayBuffer(32);
    structuredClone(detached, { transfer: [detached] });
    pool.give([detached, new ArrayBuffer(32), new ArrayBuffer(32), new ArrayBuffer(32)]);
    expect(pool.size).toBe(2);
  });
});

describe('returnOlderValues (the page side)', () => {
  it("hands back a compact message's three buffers once two newer messages arrived, never sooner", () => {
    const sent: ArrayBuffer[][] = [];
    const recycle = returnOlderValues((buffers) => sent.push(buffers));
    const ticks = [1, 2, 3, 4].map((v) => snapshotOf(reportOf({ view: 'compact' }, message(v))));
    const [one, two] = ticks as [CompactSnapshot, CompactSnapshot];
    recycle(one);
    recycle(two);
    expect(sent).toEqual([]);
    recycle(ticks[2] as CompactSnapshot);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual(buffersOf(one));
    expect(sent[0]?.[0]).toBe(one.utilization.buffer);
    recycle(ticks[3] as CompactSnapshot);
    expect(sent[1]?.[2]).toBe(two.waitFraction.buffer);
  });

  it('leaves full messages alone', () => {
    const sent: ArrayBuffer[][] = [];
    const recycle = returnOlderValues((buffers) => sent.push(buffers));
    const full = JSON.stringify({ time: summary.time, health, summary, links: [] });
    for (let i = 0; i < 4; i++) recycle(snapshotOf(reportOf({ view: 'full' }, full)));
    expect(sent).toEqual([]);
  });

  it('round trip: the worker fills the buffers the page handed back, the messages shown keep their values', () => {
    const pool = new ValuesPool();
    // The page's copies of the messages, as a transfer between threads makes them.
    const shown: CompactSnapshot[] = [];
    const recycle = returnOlderValues((buffers) => {
      const moved = structuredClone(buffers, { transfer: buffers });
      pool.give(moved);
    });
    for (let v = 1; v <= 6; v++) {
      const before = pool.size;
      const snapshot = snapshotOf(reportOf({ view: 'compact' }, message(v), pool.take));
      // From the third message on, the worker had three buffers back and allocated none.
      if (v >= 4) expect([before, pool.size]).toEqual([3, 0]);
      const onPage = structuredClone(snapshot, { transfer: buffersOf(snapshot) });
      shown.push(onPage);
      recycle(onPage);
    }
    const values = (s: CompactSnapshot | undefined) =>
      s ? [...s.utilization, ...s.bytesPerSecond, ...s.waitFraction] : [];
    // The two newest are intact (an odd tick's wait unknown); the older ones were handed back.
    expect(values(shown[5])).toEqual([...Array(8).fill(6), ...Array(4).fill(6)]);
    expect(values(shown[4])).toEqual([...Array(8).fill(5), ...Array(4).fill(Number.NaN)]);
    expect(shown[3]?.utilization).toHaveLength(0);
  });
});

/** A stand-in for the browser's Worker: records what the page posts, and what it transfers. */
class StubWorker {
  static last: StubWorker | null = null;
  onmessage: ((event: MessageEvent<StreamReport>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readonly calls: { call: StreamWorkerCall; transfer: Transferable[] }[] = [];
  constructor() {
    StubWorker.last = this;
  }
  postMessage(call: StreamWorkerCall, transfer: Transferable[] = []) {
    this.calls.push({ call, transfer });
  }
  report(report: StreamReport) {
    this.onmessage?.({ data: report } as MessageEvent<StreamReport>);
  }
  terminate() {}
}

describe('openStream in a worker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    StubWorker.last = null;
  });

  it('opens the stream, then hands back each compact message two messages later, transferred', () => {
    vi.stubGlobal('Worker', StubWorker);
    vi.stubGlobal('window', { location: { href: 'http://127.0.0.1:8080/' } });
    const reports: StreamReport[] = [];
    const source = openStream({ view: 'compact', channels: 4 }, (r) => reports.push(r));
    const worker = StubWorker.last as StubWorker;
    expect(worker.calls.map((c) => c.call)).toEqual([
      {
        kind: 'open',
        url: 'http://127.0.0.1:8080/api/v1/stream?view=compact',
        request: { view: 'compact', channels: 4 },
      },
    ]);
    const sent = [1, 2, 3].map((v) => reportOf({ view: 'compact' }, message(v)));
    for (const report of sent) worker.report(report);
    expect(reports).toEqual(sent);
    const first = snapshotOf(sent[0] as StreamReport);
    expect(worker.calls.slice(1)).toEqual([
      { call: { kind: 'recycle', buffers: buffersOf(first) }, transfer: buffersOf(first) },
    ]);
    source.close();
  });
});
