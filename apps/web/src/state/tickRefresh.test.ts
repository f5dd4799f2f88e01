import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';

const settle = () => new Promise((r) => setTimeout(r, 0));

import type { LiveSnapshot } from '../api/types.ts';
import { INITIAL_STREAM_STATE, LiveStream } from './liveStream.ts';
import { onTickBuckets, refreshAnswer, tickBucket } from './tickRefresh.ts';

describe('tick buckets', () => {
  it('puts the ticks of one refresh period in one bucket', () => {
    const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + s * 1000).toISOString();
    expect(tickBucket(at(0), 2000)).toBe(tickBucket(at(1), 2000));
    expect(tickBucket(at(2), 2000)).toBe((tickBucket(at(1), 2000) ?? 0) + 1);
    expect(tickBucket(null, 2000)).toBeNull();
    expect(tickBucket('garbage', 2000)).toBeNull();
  });
});

describe('refreshing an answer on a tick', () => {
  let client: QueryClient;
  const unsubscribe: (() => void)[] = [];
  afterEach(() => {
    for (const u of unsubscribe.splice(0)) u();
    client.clear();
  });

  /** A question shown (an observer subscribed) whose reads are counted and held until released. */
  function shown(key: string[]) {
    const reads: { signal: AbortSignal; release: (v: number) => void }[] = [];
    client = new QueryClient({
      defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
    });
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: ({ signal }) => new Promise<number>((release) => reads.push({ signal, release })),
    });
    unsubscribe.push(observer.subscribe(() => {}));
    return { reads, observer };
  }

  it('asks again, once, never twice while a read is on its way', async () => {
    const { reads } = shown(['traffic']);
    expect(reads).toHaveLength(1);
    reads[0]?.release(1);
    await settle();
    void refreshAnswer(client, ['traffic']);
    void refreshAnswer(client, ['traffic']);
    await settle();
    expect(reads).toHaveLength(2);
    expect(reads[1]?.signal.aborted).toBe(false);
  });

  it('asks nothing while a change to the answer is on its way', async () => {
    const { reads } = shown(['faults']);
    reads[0]?.release(1);
    await settle();
    let finish: (v: number) => void = () => {};
    const change = new MutationObserver(client, {
      mutationKey: ['faults'],
      mutationFn: () => new Promise<number>((r) => (finish = r)),
    });
    const done = change.mutate();
    await settle();
    void refreshAnswer(client, ['faults']);
    await settle();
    expect(reads).toHaveLength(1);
    finish(2);
    await done;
    void refreshAnswer(client, ['faults']);
    await settle();
    expect(reads).toHaveLength(2);
  });
});

describe('the refresh clock: the live stream’s ticks', () => {
  const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + s * 1000).toISOString();
  const message = (stream: LiveStream, s: number) =>
    stream.set({ ...INITIAL_STREAM_STATE, snapshot: { time: at(s) } as LiveSnapshot, receivedAtMs: s });

  it('asks again once per bucket the ticks move into, not in the bucket it started in', () => {
    const stream = new LiveStream();
    message(stream, 0);
    let asked = 0;
    const stop = onTickBuckets(stream, 2000, () => asked++);
    message(stream, 1);
    expect(asked).toBe(0);
    message(stream, 2);
    message(stream, 3);
    expect(asked).toBe(1);
    // The same message again (a state change that is not a tick), then the next bucket.
    stream.update((s) => ({ ...s, silent: true }));
    message(stream, 4);
    expect(asked).toBe(2);
    stop();
    message(stream, 6);
    expect(asked).toBe(2);
  });

  it('before any message, the first bucket is the question’s own', () => {
    const stream = new LiveStream();
    let asked = 0;
    onTickBuckets(stream, 1000, () => asked++);
    message(stream, 0);
    expect(asked).toBe(0);
    message(stream, 1);
    expect(asked).toBe(1);
  });

  it('the stream’s listeners hear each new state once, and nothing when it is set to the same', () => {
    const stream = new LiveStream();
    let heard = 0;
    stream.subscribe(() => heard++);
    const state = { ...INITIAL_STREAM_STATE, silent: true };
    stream.set(state);
    stream.set(state);
    stream.update((s) => s);
    expect(heard).toBe(1);
    expect(stream.get()).toBe(state);
  });
});
