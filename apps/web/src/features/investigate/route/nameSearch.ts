/** Host picker matches, case-insensitive: prefix matches, then substring ones, at most `limit`. */
export function matchNames(
  names: readonly string[],
  query: string,
  limit: number,
): { matches: string[]; total: number } {
  const q = query.trim().toLowerCase();
  if (q === '') return { matches: names.slice(0, limit), total: names.length };
  const starts: string[] = [];
  const contains: string[] = [];
  let total = 0;
  for (const name of names) {
    const lower = name.toLowerCase();
    const at = lower.indexOf(q);
    if (at < 0) continue;
    total++;
    if (at === 0) {
      if (starts.length < limit) starts.push(name);
    } else if (contains.length < limit) contains.push(name);
  }
  return { matches: [...starts, ...contains].slice(0, limit), total };
}
