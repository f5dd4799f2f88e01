import { describe, expect, it } from 'vitest';
import { ChangeQueue } from './changeQueue.ts';

/** A promise the test resolves or rejects by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ChangeQueue', () => {
  it('runs a change only after the one before it has finished, and each to its end', async () => {
    const busy: boolean[] = [];
    const queue = new ChangeQueue((b) => busy.push(b));
    const log: string[] = [];
    const stop = deferred<string>();
    const first = queue.run(async () => {
      log.push('stop sent');
      const answer = await stop.promise;
      log.push('stop answered');
      return answer;
    });
    const second = queue.run(async () => {
      log.push('start sent');
      return 'started';
    });
    await settle();
    // The start waits for the stop, however long the stop takes.
    expect(log).toEqual(['stop sent']);
    expect(queue.busy).toBe(true);
    stop.resolve('stopped');
    expect(await first).toBe('stopped');
    expect(await second).toBe('started');
    await settle();
    expect(log).toEqual(['stop sent', 'stop answered', 'start sent']);
    expect(busy).toEqual([true, false]);
    expect(queue.busy).toBe(false);
  });

  it('a failed change rejects its own caller and does not hold back the next', async () => {
    const busy: boolean[] = [];
    const queue = new ChangeQueue((b) => busy.push(b));
    const failed = queue.run(() => Promise.reject(new Error('409')));
    const next = queue.run(() => Promise.resolve('ok'));
    await expect(failed).rejects.toThrow('409');
    expect(await next).toBe('ok');
    await settle();
    expect(busy).toEqual([true, false]);
  });
});
