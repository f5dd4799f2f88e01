import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How long one slice of a fabric-sized loop may hold the event loop: requests and stream writes
 * wait at most about this long behind a tick's computation (issue #29: no handler waits > ~50 ms).
 */
export const SLICE_MS = 20;
/** Iterations between looks at the clock (a look costs more than most iterations). */
const CHECK_EVERY = 512;

/**
 * Calls `body(i)` for i = 0 … n−1 in order, giving the event loop a turn whenever a slice has run
 * `sliceMs`: the same work as a plain loop, in slices. The loop's state must stay valid across a
 * turn (what it reads is not changed meanwhile, or a change is harmless to it).
 */
export async function slicedLoop(n: number, body: (i: number) => void, sliceMs = SLICE_MS): Promise<void> {
  let sliceStart = performance.now();
  for (let i = 0; i < n; i++) {
    body(i);
    if ((i + 1) % CHECK_EVERY === 0 && performance.now() - sliceStart > sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
