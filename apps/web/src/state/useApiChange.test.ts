import { MutationObserver, QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api/client.ts';
import { type ApiCall, changeOptions } from './useApiChange.ts';

const api = {} as ApiClient;

function setUp() {
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  const reads: { signal: AbortSignal; release: (v: string) => void }[] = [];
  const observer = new QueryObserver(client, {
    queryKey: ['traffic'],
    queryFn: ({ signal }) => new Promise<string>((release) => reads.push({ signal, release })),
  });
  const stop = observer.subscribe(() => {});
  const leaving = new AbortController();
  const send = (call: ApiCall<string>) =>
    new MutationObserver(
      client,
      changeOptions<string>(client, api, ['traffic'], () => leaving.signal),
    )
      .mutate(call)
      .catch(() => undefined);
  return { client, reads, send, stop, leaving };
}

/** A change whose answer comes when released; `log` records when it starts and ends. */
function held(name: string, log: string[], fail = false) {
  let release: () => void = () => {};
  const call: ApiCall<string> = () => {
    log.push(`${name} start`);
    return new Promise<string>((resolve, reject) => {
      release = () => {
        log.push(`${name} end`);
        if (fail) reject(new Error(`${name} failed`));
        else resolve(name);
      };
    });
  };
  return { call, release: () => release() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('changes to an answer', () => {
  it('run one after another, each to its end, a failed one not holding back the next', async () => {
    const { client, send, stop } = setUp();
    const log: string[] = [];
    const stopAll = held('stop', log, true);
    const start = held('start', log);
    const a = send(stopAll.call);
    const b = send(start.call);
    await tick();
    expect(log).toEqual(['stop start']);
    stopAll.release();
    await tick();
    expect(log).toEqual(['stop start', 'stop end', 'start start']);
    start.release();
    await Promise.all([a, b]);
    expect(client.getQueryData(['traffic'])).toBe('start');
    stop();
  });

  it('cancel a read on its way, whose older news must not overwrite the change', async () => {
    const { client, reads, send, stop } = setUp();
    expect(reads).toHaveLength(1);
    const log: string[] = [];
    const start = held('start', log);
    const done = send(start.call);
    await tick();
    expect(reads[0]?.signal.aborted).toBe(true);
    reads[0]?.release('old');
    start.release();
    await done;
    expect(client.getQueryData(['traffic'])).toBe('start');
    stop();
  });

  it('leave the answer alone once the page has gone', async () => {
    const { client, send, stop, leaving } = setUp();
    const log: string[] = [];
    const start = held('start', log);
    const done = send(start.call);
    await tick();
    leaving.abort();
    start.release();
    await done;
    expect(client.getQueryData(['traffic'])).toBeUndefined();
    stop();
  });
});
