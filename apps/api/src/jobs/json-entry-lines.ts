/**
 * The line (1-based) each element of the top-level `"jobs"` array starts on, in order; [] when `text` has none.
 * A scan of JSON's tokens only (JSON.parse says nothing of where an object was), for errors that name the line.
 */
export function jobsEntryLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let stringStart = 0;
  let lastKey = '';
  let jobsDepth = -1;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') {
        inString = false;
        if (depth === 1) lastKey = text.slice(stringStart, i);
      }
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') continue;
    if (jobsDepth >= 0 && depth === jobsDepth && expectValue && ch !== ']') {
      lines.push(line);
      expectValue = false;
    }
    if (ch === '"') {
      inString = true;
      stringStart = i + 1;
    } else if (ch === '{' || ch === '[') {
      depth++;
      if (ch === '[' && depth === 2 && lastKey === 'jobs' && jobsDepth < 0) {
        jobsDepth = depth;
        expectValue = true;
      }
    } else if (ch === '}' || ch === ']') {
      if (depth === jobsDepth && ch === ']') return lines;
      depth--;
    } else if (ch === ',' && depth === jobsDepth) expectValue = true;
    else if (ch === ':' || ch === ',') {
      if (depth === 1 && ch === ',') lastKey = '';
    }
  }
  return lines;
}
