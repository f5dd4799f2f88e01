// Slurm host lists (`node[001-032,040]`, `rack[1-2]-n[01-04]`) as squeue prints them: ranges keep
// their lower bound's zero padding, and several bracket groups expand as their product (hostlist.c).

/** Most names one host list may expand to: a typo such as `n[1-999999999]` fails instead of filling memory. */
export const MAX_HOSTLIST_NAMES = 1_000_000;

/** A host list that is not Slurm's syntax; the message says where. */
export class HostListError extends Error {
  override name = 'HostListError';
}

/** The names of a host list, in the order written; duplicates kept as written. */
export function expandHostList(text: string): string[] {
  const names: string[] = [];
  for (const item of splitTopLevel(text.trim(), text)) {
    if (item === '') continue;
    for (const name of expandItem(item, text)) {
      names.push(name);
      if (names.length > MAX_HOSTLIST_NAMES) throw tooMany(text);
    }
  }
  return names;
}

/** expandHostList, its syntax errors rethrown as `wrap(message)` (the caller's error kind). */
export function hostsOf(text: string, wrap: (message: string) => Error): string[] {
  try {
    return expandHostList(text);
  } catch (error) {
    if (error instanceof HostListError) throw wrap(error.message);
    throw error;
  }
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

const tooMany = (whole: string) =>
  new HostListError(`host list "${clip(whole)}" names more than ${MAX_HOSTLIST_NAMES} hosts`);

/** Splits at commas outside brackets. */
function splitTopLevel(text: string, whole: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '[') {
      if (depth > 0) throw new HostListError(`nested "[" in host list "${clip(whole)}"`);
      depth++;
    } else if (ch === ']') {
      if (depth === 0) throw new HostListError(`"]" without "[" in host list "${clip(whole)}"`);
      depth--;
    } else if (ch === ',' && depth === 0) {
      items.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth !== 0) throw new HostListError(`unclosed "[" in host list "${clip(whole)}"`);
  items.push(text.slice(start).trim());
  return items;
}

/** One name with zero or more bracket groups → every name it stands for. */
function expandItem(item: string, whole: string): string[] {
  const open = item.indexOf('[');
  if (open < 0) {
    if (/\s/.test(item)) throw new HostListError(`host name with a space in "${clip(whole)}"`);
    return [item];
  }
  const close = item.indexOf(']', open);
  const prefix = item.slice(0, open);
  const values = expandRanges(item.slice(open + 1, close), whole);
  const rests = expandItem(item.slice(close + 1), whole);
  const out: string[] = [];
  for (const v of values) {
    for (const rest of rests) out.push(`${prefix}${v}${rest}`);
    if (out.length > MAX_HOSTLIST_NAMES) throw tooMany(whole);
  }
  return out;
}

/** `001-032,040` → the numbers as written, padded to their lower bound's width. */
function expandRanges(body: string, whole: string): string[] {
  const out: string[] = [];
  for (const part of body.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new HostListError(`"${part}" is not a number or range in host list "${clip(whole)}"`);
    const low = m[1] as string;
    const high = m[2] ?? low;
    const a = Number(low);
    const b = Number(high);
    if (b < a) throw new HostListError(`range "${part}" runs backwards in host list "${clip(whole)}"`);
    if (b - a >= MAX_HOSTLIST_NAMES) throw tooMany(whole);
    const width = low.length;
    for (let n = a; n <= b; n++) out.push(String(n).padStart(width, '0'));
  }
  return out;
}
