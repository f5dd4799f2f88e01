// Answers of the API as the web's tests need them: complete shapes (the contract's), with only
// what a test is about given. Imported by tests only.

import type { CategoryName, EventRecord, Health, LinkDirectionState, Summary } from '@fabscope/contracts';
import { ERROR_FIELDS } from '@fabscope/contracts';
import { CATEGORIES } from '../lib/linkHealth.ts';

type Fields = Partial<Omit<LinkDirectionState, 'errors' | 'categories'>> & {
  errors?: Partial<LinkDirectionState['errors']>;
  categories?: Partial<Record<CategoryName, number | null>>;
};

const unknownOf = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, null])) as Record<K, null>;

const CAPACITY = 12.5e9;

/**
 * A link direction `a/1->b/2` (or any id): an ISL unless an end is a `node…`, 12.5 GB/s, up, its
 * rate following its utilization, nothing known about wait or errors (counters not given are
 * unknown); `fields` override.
 */
export function linkState(id: string, fields: Fields = {}): LinkDirectionState {
  const [from = id, to = id] = id.split('->');
  const [fromNode = from, fromPort = '1'] = from.split('/');
  const [toNode = to, toPort = '1'] = to.split('/');
  const utilization = fields.utilization === undefined ? 0 : fields.utilization;
  const capacityBytesPerSecond = fields.capacityBytesPerSecond ?? CAPACITY;
  return {
    id,
    linkId: `${from}--${to}`,
    kind: fromNode.startsWith('node') || toNode.startsWith('node') ? 'host' : 'isl',
    from: { node: fromNode, port: Number(fromPort) || 1 },
    to: { node: toNode, port: Number(toPort) || 1 },
    capacityBytesPerSecond,
    utilization,
    bytesPerSecond: utilization === null ? null : utilization * capacityBytesPerSecond,
    packetsPerSecond: null,
    transmitWaitTicksPerSecond: null,
    transmitWaitFraction: null,
    linkUp: true,
    stale: utilization === null,
    errorsPerSecond: null,
    ...fields,
    errors: { ...unknownOf(ERROR_FIELDS), ...fields.errors },
    categories: { ...unknownOf(CATEGORIES), ...fields.categories },
  };
}

export const HEALTH_OK: Health = {
  status: 'ok',
  store: 'embedded',
  lastSampleAgeSeconds: 0.5,
  intervalMs: 1000,
  staleAfterSeconds: 5,
};

type CategoryBars = NonNullable<Summary['categories']>[CategoryName];

export function summaryOf(
  fields: Partial<Omit<Summary, 'categories'>> & {
    categories?: Partial<Record<CategoryName, CategoryBars>>;
  } = {},
): Summary {
  const { categories, ...rest } = fields;
  const none: CategoryBars = { isl: [0, 0, 0, 0, 0], host: [0, 0, 0, 0, 0], unknown: 0 };
  return {
    time: 't',
    hostTransmitBytesPerSecond: 0,
    histogram: { isl: [], host: [] },
    staleLinks: 0,
    ...rest,
    ...(categories
      ? {
          categories: Object.fromEntries(CATEGORIES.map((c) => [c, categories[c] ?? none])) as NonNullable<
            Summary['categories']
          >,
        }
      : {}),
  };
}

export function fabricEvent(fields: Partial<EventRecord> & Pick<EventRecord, 'time' | 'kind'>): EventRecord {
  return { subject: 'fabric', detail: '', severity: 'info', ...fields };
}
