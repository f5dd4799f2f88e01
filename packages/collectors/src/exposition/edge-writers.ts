import { CATEGORY_NAMES } from '@fabscope/topology';
import { CATEGORY_COUNT, type Directions, ERROR_FIELDS, ERRORS_BIT } from '../fabric/edge-figures.ts';
import type { EdgeRates, EdgeSweep } from '../fabric/edge-rates.ts';
import type { PortSample } from '../fabric/port-sample.ts';
import type { ChunkWriter } from './chunk-writer.ts';
import type { PortLabels } from './port-exposition.ts';
import { escapeLabelValue } from './writer.ts';

export interface EdgeFamily {
  name: string;
  type: 'gauge' | 'counter';
  help: string;
  /** A value per written direction, NaN left out; else `write` writes the family's samples. */
  dense?: (d: Directions) => Float64Array;
  write?: (name: Buffer, s: EdgeScrape) => void;
}

/** One scrape's edge exposition: the sweep's figures and the directions this collector writes. */
export interface EdgeScrape {
  sweep: EdgeSweep;
  edge: EdgeRates;
  labels: PortLabels;
  out: ChunkWriter;
  d: Directions;
  /** The directions written, and each one's label set (its sending port's). */
  written: number[];
  labelOf: Buffer[];
  timestamp: Buffer;
}

/** The node type at one end of direction `k`, from the read or, failing that, the far end's label. */
function typeOfEnd(s: EdgeScrape, k: number, end: 'sender' | 'receiver'): string {
  const ports = s.sweep.snapshot.ports;
  const near = (end === 'sender' ? s.d.sender[k] : s.d.receiver[k]) as number;
  if (near >= 0) return (ports[near] as PortSample).nodeType;
  const far = (end === 'sender' ? s.d.receiver[k] : s.d.sender[k]) as number;
  const remote = (ports[far] as PortSample).remote;
  return remote ? (s.labels.typeOf.get(remote.nodeGuid) ?? '') : '';
}

/** A label set with one more label before the closing brace (`…,category="integrity"} `). */
const withLabel = (label: Buffer, extra: string) =>
  Buffer.concat([label.subarray(0, label.length - 2), Buffer.from(`,${extra}} `, 'latin1')]);

/** A label set of the fabric alone, or with more labels (`extra`: `,field="x"`). */
const fabricLabel = (s: EdgeScrape, extra = '') => Buffer.from(`{fabric="${s.labels.fabric}"${extra}} `);

/** A dense family's samples, streamed as its buffers fill. */
export function* writeDense(name: Buffer, values: Float64Array, s: EdgeScrape): Generator<Buffer> {
  const { out, written, labelOf, timestamp } = s;
  for (let w = 0; w < written.length; w++) {
    const v = values[written[w] as number] as number;
    if (Number.isNaN(v)) continue;
    out.sample(name, labelOf[w] as Buffer, v, timestamp);
    if (out.ready.length > 0) yield* out.drain();
  }
}

export function writeDirectionErrors(name: Buffer, s: EdgeScrape): void {
  const { out, d, written, labelOf, timestamp } = s;
  for (let w = 0; w < written.length; w++) {
    const k = written[w] as number;
    if (!(((d.write[k] as number) >> ERRORS_BIT) & 1)) continue;
    out.sample(name, labelOf[w] as Buffer, d.errors[k] as number, timestamp);
  }
}

export function writeCategories(name: Buffer, s: EdgeScrape): void {
  const { out, d, written, labelOf, timestamp } = s;
  for (let w = 0; w < written.length; w++) {
    const k = written[w] as number;
    const write = d.write[k] as number;
    if ((write & ((1 << CATEGORY_COUNT) - 1)) === 0) continue;
    CATEGORY_NAMES.forEach((category, c) => {
      if (!((write >> c) & 1)) return;
      const label = withLabel(labelOf[w] as Buffer, `category="${category}"`);
      out.sample(name, label, d.categories[k * CATEGORY_COUNT + c] as number, timestamp);
    });
  }
}

export function writePortErrors(name: Buffer, s: EdgeScrape): void {
  const { out, d, labels, timestamp } = s;
  for (let i = 0; i < labels.ports.length; i++) {
    const si = labels.indices[i] as number;
    const write = d.portWrite[si] as number;
    if (write === 0) continue;
    ERROR_FIELDS.forEach((field, f) => {
      if (!((write >> f) & 1)) return;
      const label = withLabel(labels.keyOf(i), `field="${field}"`);
      out.sample(name, label, d.portValues[si * ERROR_FIELDS.length + f] as number, timestamp);
    });
  }
}

export function writeResets(name: Buffer, s: EdgeScrape): void {
  const { out, labels, sweep, edge, timestamp } = s;
  for (let i = 0; i < labels.ports.length; i++) {
    const resets = edge.resets(sweep.slots[labels.indices[i] as number] as number);
    if (resets === 0) continue;
    out.sample(name, labels.keyOf(i), resets, timestamp);
  }
}

/** Each saturated counter of a port, by field: since when (Unix s) it has stood at its maximum. */
export function writeSaturated(name: Buffer, s: EdgeScrape): void {
  const { out, labels, timestamp } = s;
  for (let i = 0; i < labels.ports.length; i++) {
    const since = (labels.ports[i] as PortSample).saturatedSinceMs;
    if (!since) continue;
    for (const [field, ms] of Object.entries(since)) {
      const label = withLabel(labels.keyOf(i), `field="${escapeLabelValue(field)}"`);
      out.sample(name, label, ms / 1000, timestamp);
    }
  }
}

export function writeHostBytes(name: Buffer, s: EdgeScrape): void {
  const { out, d, written, timestamp } = s;
  let total = 0;
  let known = 0;
  for (let w = 0; w < written.length; w++) {
    const k = written[w] as number;
    const v = d.bytes[k] as number;
    if (Number.isNaN(v) || typeOfEnd(s, k, 'sender') !== 'host') continue;
    total += v;
    known++;
  }
  if (known > 0) out.sample(name, fabricLabel(s), total, timestamp);
}

export function writeUtilizationBuckets(name: Buffer, s: EdgeScrape): void {
  const { out, d, written, timestamp } = s;
  const buckets = { isl: new Array<number>(10).fill(0), host: new Array<number>(10).fill(0) };
  for (let w = 0; w < written.length; w++) {
    const k = written[w] as number;
    const u = d.utilization[k] as number;
    if (Number.isNaN(u)) continue;
    const isl = typeOfEnd(s, k, 'sender') === 'switch' && typeOfEnd(s, k, 'receiver') === 'switch';
    const bars = isl ? buckets.isl : buckets.host;
    const b = Math.min(9, Math.max(0, Math.floor(u * 10)));
    bars[b] = (bars[b] ?? 0) + 1;
  }
  for (const kind of ['isl', 'host'] as const) {
    buckets[kind].forEach((n, b) => {
      out.sample(name, fabricLabel(s, `,kind="${kind}",bucket="${b}"`), n, timestamp);
    });
  }
}

export function writeSweepInterval(name: Buffer, s: EdgeScrape): void {
  const { intervalSeconds } = s.sweep;
  if (intervalSeconds !== null) s.out.sample(name, fabricLabel(s), intervalSeconds, s.timestamp);
}

export function writeErrorFields(name: Buffer, s: EdgeScrape): void {
  const { out, labels, timestamp } = s;
  const counts = new Array<number>(ERROR_FIELDS.length).fill(0);
  for (const p of labels.ports) {
    ERROR_FIELDS.forEach((key, f) => {
      if (p.errors?.[key] !== undefined) counts[f] = (counts[f] ?? 0) + 1;
    });
  }
  counts.forEach((c, f) => {
    if (c === 0) return;
    const field = escapeLabelValue(ERROR_FIELDS[f] as string);
    out.sample(name, fabricLabel(s, `,field="${field}"`), c, timestamp);
  });
}
