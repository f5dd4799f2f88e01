/** mulberry32 (Tommy Ettinger, public domain), so a seed draws the same in the CLI, API and emulator. */
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
