import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { gnmiSource } from '../../../src/sources/gnmi/gnmi-source.ts';
import { backoffMs, type StreamClock, type SubscribeCall } from '../../../src/sources/gnmi/gnmi-stream.ts';
import { parseGnmiTargets } from '../../../src/sources/gnmi/gnmi-targets.ts';

/** A clock whose time moves only when the test says, running the timers that fall due. */
function manualClock(): StreamClock & { advance(ms: number): void; pending(): number[] } {
  let now = 1_000_000;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return timer;
    },
    clearTimeout(handle) {
      timers = timers.filter((t) => t !== handle);
    },
    pending: () => timers.map((t) => t.at - now),
    advance(ms) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.fn();
    },
  };
}

class FakeCall extends EventEmitter implements SubscribeCall {
  written: unknown[] = [];
  cancelled = false;
  write(request: unknown) {
    this.written.push(request);
    return true;
  }
  cancel() {
    this.cancelled = true;
  }
  octets(iface: string, n: number) {
    const path = { element: ['interfaces', `interface[name=${iface}]`, 'state', 'counters', 'in-octets'] };
    this.emit('data', { update: { update: [{ path, val: { uint_val: String(n) } }] } });
  }
}

function rig(firstSyncWaitMs = 0) {
  const clock = manualClock();
  const calls = new Map<string, FakeCall[]>();
  const targets = parseGnmiTargets('leaf1 insecure sample-ms=1000\nleaf2 insecure sample-ms=1000');
  const source = gnmiSource({
    targets,
    clock,
    backoff: { initialMs: 100, maxMs: 800 },
    firstSyncWaitMs,
    connect: (t) => ({
      open: () => {
        const call = new FakeCall();
        calls.set(t.name, [...(calls.get(t.name) ?? []), call]);
        return call;
      },
      close: () => {},
    }),
  });
  const last = (name: string) => calls.get(name)?.at(-1) as FakeCall;
  const read = () => source.read(new AbortController().signal);
  return { clock, calls, source, last, read };
}

describe('a gNMI stream that drops', () => {
  it('backs off doubling from the initial wait to the most', () => {
    expect([1, 2, 3, 4, 5, 40].map((a) => backoffMs(a, { initialMs: 100, maxMs: 800 }))).toEqual([
      100, 200, 400, 800, 800, 800,
    ]);
  });

  it('asks for a STREAM of SAMPLE subscriptions at the target’s interval', () => {
    const { last, source } = rig();
    const request = last('leaf1').written[0] as {
      subscribe: { mode: string; subscription: { mode: string; sample_interval: string }[] };
    };
    expect(request.subscribe.mode).toBe('STREAM');
    expect(new Set(request.subscribe.subscription.map((s) => `${s.mode} ${s.sample_interval}`))).toEqual(
      new Set(['SAMPLE 1000000000']),
    );
    source.close();
  });

  it('is a gap with a counted reason, resubscribed after the backoff, while the other target reads on', async () => {
    const { clock, calls, last, read, source } = rig();
    last('leaf1').octets('e1', 100);
    last('leaf2').octets('e1', 500);
    expect((await read()).targets?.map((t) => t.outcome)).toEqual(['ok', 'ok']);

    last('leaf1').emit('error', new Error('14 UNAVAILABLE: Connection dropped'));
    last('leaf1').emit('end');
    clock.advance(10);
    last('leaf2').octets('e1', 600);
    const gap = await read();
    expect(gap.targets?.[0]).toMatchObject({
      outcome: 'error',
      reason: 'stream dropped: 14 UNAVAILABLE: Connection dropped; resubscribing in 0.1 s (1 drops)',
    });
    expect(gap.ports.map((p) => [p.nodeName, p.receiveBytes])).toEqual([['leaf2', 600]]);
    expect(calls.get('leaf1')?.[0]?.cancelled).toBe(true);

    // Each failed resubscribe waits twice as long; the first update resets the wait.
    clock.advance(100);
    expect(calls.get('leaf1')?.length).toBe(2);
    last('leaf1').emit('error', new Error('14 UNAVAILABLE: connect ECONNREFUSED'));
    expect(clock.pending()).toEqual([200]);
    clock.advance(200);
    expect((await read()).targets?.[0]?.reason).toBe(
      'resubscribing after: 14 UNAVAILABLE: connect ECONNREFUSED',
    );
    last('leaf1').octets('e1', 7);
    const back = await read();
    expect(back.ports.map((p) => [p.nodeName, p.receiveBytes])).toEqual([
      ['leaf1', 7],
      ['leaf2', 600],
    ]);
    last('leaf1').emit('error', new Error('again'));
    expect(clock.pending()).toEqual([100]);
    expect(source.statuses()[0]?.status.drops).toBe(3);
    source.close();
    expect(clock.pending()).toEqual([]);
  });

  it('is a gap when the stream stays open but silent for three sample intervals', async () => {
    const { clock, last, read, source } = rig();
    last('leaf1').octets('e1', 1);
    last('leaf2').octets('e1', 1);
    clock.advance(3000);
    expect((await read()).targets?.map((t) => t.outcome)).toEqual(['ok', 'ok']);
    clock.advance(1);
    last('leaf2').octets('e1', 2);
    const silent = await read();
    expect(silent.targets?.[0]).toMatchObject({ outcome: 'error', reason: 'no update for 3.0 s' });
    expect(silent.ports.map((p) => p.nodeName)).toEqual(['leaf2']);
    source.close();
  });

  it('waits, on its first read only and at most the bound, for every stream to sync or fail', async () => {
    const { clock, last, read, source } = rig(5000);
    let done = false;
    const first = read().then((s) => {
      done = true;
      return s;
    });
    last('leaf1').octets('e1', 9);
    last('leaf1').emit('data', { sync_response: true });
    clock.advance(50);
    await Promise.resolve();
    expect(done).toBe(false);
    last('leaf2').emit('error', new Error('14 UNAVAILABLE: connect ECONNREFUSED'));
    clock.advance(50);
    const snapshot = await first;
    expect(snapshot.targets?.map((t) => t.outcome)).toEqual(['ok', 'error']);
    expect(snapshot.ports.map((p) => [p.nodeName, p.receiveBytes])).toEqual([['leaf1', 9]]);
    source.close();

    const silent = rig(5000);
    const bounded = silent.read();
    for (let t = 0; t < 5000; t += 50) {
      silent.clock.advance(50);
      await Promise.resolve();
    }
    expect((await bounded).targets?.map((t) => t.reason)).toEqual([
      'subscribed, no update yet',
      'subscribed, no update yet',
    ]);
    // Later reads do not wait: they say what they have.
    expect((await silent.read()).ports).toEqual([]);
    silent.source.close();
  });

  it('says so before the first update rather than reporting zeros', async () => {
    const { read, source } = rig();
    const first = await read();
    expect(first.ports).toEqual([]);
    expect(first.targets?.map((t) => t.reason)).toEqual([
      'subscribed, no update yet',
      'subscribed, no update yet',
    ]);
    source.close();
  });
});
