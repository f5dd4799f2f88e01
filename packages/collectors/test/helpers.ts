import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
  /** The sample's timestamp (ms), when the line has one. */
  timestampMs?: number;
}

/** Minimal exposition reader for tests: one sample per non-comment line. */
export function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    // An optional sample timestamp (integer milliseconds) may follow the value.
    const match = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/);
    if (!match) throw new Error(`bad exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const m of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[m[1] as string] = (m[2] as string).replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
    }
    const sample: Sample = { name: match[1] as string, labels, value: Number(match[3]) };
    if (match[4] !== undefined) sample.timestampMs = Number(match[4]);
    out.push(sample);
  }
  return out;
}

export function find(list: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return list.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The one sample's value, or undefined when absent. */
export function value(list: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = find(list, name, labels);
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

const INFO = 'fabscope_port_info';

/**
 * Each port series with its port's `fabscope_port_info` labels added (names, far end), as
 * `* on (fabric, node_guid, port) group_left (…) fabscope_port_info` does in PromQL; the info
 * series themselves stay as they are.
 */
export function described(list: Sample[]): Sample[] {
  const key = (l: Record<string, string>) => `${l.fabric}\u0000${l.node_guid}\u0000${l.port}`;
  const info = new Map(list.filter((s) => s.name === INFO).map((s) => [key(s.labels), s.labels]));
  return list.map((s) => {
    const described = s.name === INFO ? undefined : info.get(key(s.labels));
    return described ? { ...s, labels: { ...described, ...s.labels } } : s;
  });
}

/**
 * Calls `read` until `done` holds of its answer or `timeoutMs` has passed, and returns the last
 * answer: for a state a real process reaches in its own time (OpenSM's next sweep).
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (answer: T) => boolean,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = await read();
    if (done(answer) || performance.now() >= deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
