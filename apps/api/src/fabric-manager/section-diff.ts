/** A unified diff (`diff -u` style) by an LCS table: for one config section, not whole files. */
export function unifiedDiff(
  before: readonly string[],
  after: readonly string[],
  options: { label: string; firstLine?: number; context?: number },
): string {
  const firstLine = options.firstLine ?? 1;
  const context = options.context ?? 3;
  const n = before.length;
  const m = after.length;
  // lcs[i * (m + 1) + j]: length of the longest common subsequence of before[i..] and after[j..].
  const w = m + 1;
  const lcs = new Int32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] =
        before[i] === after[j]
          ? (lcs[(i + 1) * w + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * w + j] as number, lcs[i * w + j + 1] as number);
    }
  }
  const ops: { kind: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      ops.push({ kind: ' ', text: before[i] as string });
      i++;
      j++;
    } else if (i < n && (j === m || (lcs[(i + 1) * w + j] as number) >= (lcs[i * w + j + 1] as number))) {
      ops.push({ kind: '-', text: before[i++] as string });
    } else {
      ops.push({ kind: '+', text: after[j++] as string });
    }
  }
  const changed = ops.flatMap((op, k) => (op.kind === ' ' ? [] : [k]));
  if (changed.length === 0) return '';
  const out = [`--- ${options.label}`, `+++ ${options.label}`];
  let k = 0;
  while (k < changed.length) {
    const from = Math.max(0, (changed[k] as number) - context);
    let last = changed[k] as number;
    while (k + 1 < changed.length && (changed[k + 1] as number) - last <= 2 * context)
      last = changed[++k] as number;
    k++;
    const to = Math.min(ops.length, last + context + 1);
    const hunk = ops.slice(from, to);
    const aStart = ops.slice(0, from).filter((op) => op.kind !== '+').length;
    const bStart = ops.slice(0, from).filter((op) => op.kind !== '-').length;
    const aCount = hunk.filter((op) => op.kind !== '+').length;
    const bCount = hunk.filter((op) => op.kind !== '-').length;
    out.push(
      `@@ -${firstLine + aStart},${aCount} +${firstLine + bStart},${bCount} @@`,
      ...hunk.map((op) => `${op.kind}${op.text}`),
    );
  }
  return `${out.join('\n')}\n`;
}
