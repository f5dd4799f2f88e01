/** Union-find by size with path halving; networks, pods and tier groups are its components. */
export class DisjointSets<T> {
  private readonly parent = new Map<T, T>();
  private readonly size = new Map<T, number>();

  constructor(items: Iterable<T> = []) {
    for (const x of items) this.add(x);
  }

  /** Adds `x` as a set of its own (nothing when it is already in one). */
  add(x: T): void {
    if (this.parent.has(x)) return;
    this.parent.set(x, x);
    this.size.set(x, 1);
  }

  has(x: T): boolean {
    return this.parent.has(x);
  }

  /** The representative of `x`'s set; throws for a key never added. */
  find(x: T): T {
    let node = x;
    let up = this.parent.get(node);
    if (up === undefined) throw new Error(`DisjointSets: unknown key ${String(x)}`);
    while (up !== node) {
      const grand = this.parent.get(up) as T;
      this.parent.set(node, grand);
      node = grand;
      up = this.parent.get(node) as T;
    }
    return node;
  }

  /** Joins the sets of `a` and `b` (both must have been added); false when they were one already. */
  union(a: T, b: T): boolean {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return false;
    const sa = this.size.get(ra) ?? 1;
    const sb = this.size.get(rb) ?? 1;
    if (sa < sb) [ra, rb] = [rb, ra];
    this.parent.set(rb, ra);
    this.size.set(ra, sa + sb);
    return true;
  }

  /** Every set, its keys in the order they were added; sets in the order of their first key. */
  groups(): T[][] {
    const byRoot = new Map<T, T[]>();
    for (const x of this.parent.keys()) {
      const root = this.find(x);
      const list = byRoot.get(root);
      if (list) list.push(x);
      else byRoot.set(root, [x]);
    }
    return [...byRoot.values()];
  }
}
