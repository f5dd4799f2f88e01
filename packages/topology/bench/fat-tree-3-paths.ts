import { mulberry32, randomIndex } from '../src/analysis/random.ts';

/**
 * Paths of a random permutation on a k-ary three-tier fat tree (Al-Fares et al., SIGCOMM 2008)
 * with k²/4·k hosts, without building the Fabric: channel 2·link goes up, 2·link+1 down.
 * Up-ports are picked at random, so some channels are shared and the allocation has many levels.
 */
export function fatTree3Paths(k: number, seed: number): { paths: Int32Array[]; channelCount: number } {
  const half = k / 2;
  const hosts = k * half * half;
  const hostLink = (h: number) => h;
  const edgeAggLink = (edge: number, j: number) => hosts + edge * half + j;
  const aggCoreLink = (agg: number, m: number) => 2 * hosts + agg * half + m;
  const random = mulberry32(seed);
  const perm = Array.from({ length: hosts }, (_, i) => i);
  for (let i = hosts - 1; i > 0; i--) {
    const j = randomIndex(random, i + 1);
    [perm[i], perm[j]] = [perm[j] as number, perm[i] as number];
  }
  const paths: Int32Array[] = [];
  for (let s = 0; s < hosts; s++) {
    let d = perm[s] as number;
    if (d === s) d = (s + 1) % hosts;
    const se = Math.floor(s / half);
    const de = Math.floor(d / half);
    const sp = Math.floor(se / half);
    const dp = Math.floor(de / half);
    const path = [2 * hostLink(s)];
    if (se !== de) {
      const j = randomIndex(random, half);
      path.push(2 * edgeAggLink(se, j));
      if (sp !== dp) {
        const m = randomIndex(random, half);
        path.push(2 * aggCoreLink(sp * half + j, m));
        path.push(2 * aggCoreLink(dp * half + j, m) + 1);
      }
      path.push(2 * edgeAggLink(de, j) + 1);
    }
    path.push(2 * hostLink(d) + 1);
    paths.push(Int32Array.from(path));
  }
  return { paths, channelCount: 2 * (3 * hosts) };
}
