/** Parses the Prometheus text exposition format (version 0.0.4) into samples. */
export interface ExpositionSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export class ExpositionParseError extends Error {
  constructor(line: number, message: string) {
    super(`exposition line ${line}: ${message}`);
    this.name = 'ExpositionParseError';
  }
}

export function parseValue(text: string, line: number): number {
  switch (text) {
    case '+Inf':
      return Number.POSITIVE_INFINITY;
    case '-Inf':
      return Number.NEGATIVE_INFINITY;
    case 'NaN':
      return Number.NaN;
  }
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new ExpositionParseError(line, `bad value "${text}"`);
  return value;
}

export function parseLabels(
  text: string,
  start: number,
  line: number,
): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start;
  for (;;) {
    while (text[i] === ' ' || text[i] === ',') i++;
    if (text[i] === '}') return { labels, end: i + 1 };
    const eq = text.indexOf('=', i);
    if (eq < 0 || text[eq + 1] !== '"') throw new ExpositionParseError(line, 'expected label="value"');
    const name = text.slice(i, eq).trim();
    let value = '';
    let j = eq + 2;
    for (; j < text.length; j++) {
      const c = text[j];
      if (c === '\\') {
        const next = text[++j];
        value += next === 'n' ? '\n' : (next ?? '');
      } else if (c === '"') {
        break;
      } else {
        value += c;
      }
    }
    if (j >= text.length) throw new ExpositionParseError(line, `unterminated value of label "${name}"`);
    labels[name] = value;
    i = j + 1;
  }
}

/** One line of exposition text (without its newline): a sample, or null for a comment, a blank or an unwanted metric. */
export function parseLine(raw: string, line: number, wanted?: ReadonlySet<string>): ExpositionSample | null {
  if (raw === '' || raw.startsWith('#')) return null;
  const brace = raw.indexOf('{');
  const space = raw.indexOf(' ');
  const nameEnd = brace >= 0 && (space < 0 || brace < space) ? brace : space;
  if (nameEnd <= 0) throw new ExpositionParseError(line, 'expected a metric name and a value');
  const name = raw.slice(0, nameEnd);
  if (wanted && !wanted.has(name)) return null;
  let labels: Record<string, string> = {};
  let rest = nameEnd;
  if (raw[nameEnd] === '{') {
    const parsed = parseLabels(raw, nameEnd + 1, line);
    labels = parsed.labels;
    rest = parsed.end;
  }
  const fields = raw.slice(rest).trim().split(/\s+/);
  return { name, labels, value: parseValue(fields[0] ?? '', line) };
}
