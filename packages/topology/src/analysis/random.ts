/**
 * mulberry32: a small, fast 32-bit PRNG (Tommy Ettinger, public domain). Every seeded random choice
 * in fabscope (traffic patterns, the emulator's adaptive routing) comes from one of these, so the
 * same seed draws the same numbers in the CLI, the API and the emulator.
 */
export type Random = () => number;

export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform integer in 0..n-1. */
export function randomIndex(random: Random, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}
