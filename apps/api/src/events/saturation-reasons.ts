import { EXPOSITION_MEDIA_TYPE } from '@fabscope/contracts/media-types';
import { EDGE_SERIES } from '@fabscope/contracts/metrics';
import type { CategoryName } from '@fabscope/topology';
import { parseLine } from '../store/exposition.ts';
import { clockTime } from './collection-watch.ts';

/** The PM category each saturating counter feeds (topology's pm-categories.ts `categoriesOf`), by its field name. */
const CATEGORY_OF_FIELD: Readonly<Record<string, CategoryName>> = {
  transmitWait: 'congestion',
  congestionDiscards: 'congestion',
  receiveFecn: 'congestion',
  receiveBecn: 'congestion',
  markFecn: 'congestion',
  transmitTimeCongestion: 'congestion',
  receiveErrors: 'integrity',
  excessiveBufferOverrunErrors: 'integrity',
  linkDowned: 'integrity',
  uncorrectableErrors: 'integrity',
  fmConfigErrors: 'integrity',
  localLinkIntegrityErrors: 'integrity',
  linkErrorRecovery: 'integrity',
  symbolErrors: 'integrity',
  vl15Dropped: 'smaCongestion',
  transmitWastedBandwidth: 'bubble',
  transmitWaitData: 'bubble',
  receiveBubble: 'bubble',
  transmitConstraintErrors: 'security',
  receiveConstraintErrors: 'security',
  receiveSwitchRelayErrors: 'routing',
};

/** The counter as the InfiniBand specification and perfquery name it, where it differs from its field. */
const COUNTER_NAME: Readonly<Record<string, string>> = {
  transmitWait: 'XmitWait',
  symbolErrors: 'SymbolErrorCounter',
  linkErrorRecovery: 'LinkErrorRecoveryCounter',
  linkDowned: 'LinkDownedCounter',
  receiveErrors: 'PortRcvErrors',
  transmitDiscards: 'PortXmitDiscards',
  receiveSwitchRelayErrors: 'PortRcvSwitchRelayErrors',
  transmitConstraintErrors: 'PortXmitConstraintErrors',
  receiveConstraintErrors: 'PortRcvConstraintErrors',
  localLinkIntegrityErrors: 'LocalLinkIntegrityErrors',
  excessiveBufferOverrunErrors: 'ExcessiveBufferOverrunErrors',
  vl15Dropped: 'VL15Dropped',
};

/** "XmitWait saturated since 12:04:10 — congestion unknown": the earliest saturated counter of `category`. */
export function saturationReason(
  fields: ReadonlyMap<string, number> | undefined,
  category: CategoryName,
): string | undefined {
  let first: [string, number] | undefined;
  for (const [field, sinceMs] of fields ?? []) {
    if (CATEGORY_OF_FIELD[field] !== category) continue;
    if (!first || sinceMs < first[1]) first = [field, sinceMs];
  }
  if (!first) return undefined;
  const [field, sinceMs] = first;
  return `${COUNTER_NAME[field] ?? field} saturated since ${clockTime(sinceMs)} — ${category} unknown`;
}

/** Ports' saturated counters (`port key → field → since ms`) from the text of the collectors' saturation family. */
export function saturatedFromText(text: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const wanted = new Set<string>([EDGE_SERIES.saturated]);
  text.split('\n').forEach((raw, i) => {
    const sample = parseLine(raw.trimEnd(), i + 1, wanted);
    if (!sample || !Number.isFinite(sample.value)) return;
    const { node_guid: guid, port, field } = sample.labels;
    if (guid === undefined || port === undefined || field === undefined) return;
    const key = `${guid}/${port}`;
    const fields = out.get(key) ?? new Map<string, number>();
    fields.set(field, Math.round(sample.value * 1000));
    out.set(key, fields);
  });
  return out;
}

/** How long one read of the collectors' saturation family may take. */
const READ_TIMEOUT_MS = 2000;

/**
 * The collectors' saturated counters, read when an alarm has members of unknown value (the family is sparse, but
 * the collector computes its edge figures to write it): one read at a time, the last answer kept.
 */
export class SaturatedCounters {
  private ports = new Map<string, Map<string, number>>();
  private reading: Promise<void> | null = null;

  constructor(
    private readonly urls: readonly string[],
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Starts a read of every collector unless one is under way; a collector that fails keeps nothing. */
  refresh(): Promise<void> {
    if (this.reading) return this.reading;
    this.reading = (async () => {
      const next = new Map<string, Map<string, number>>();
      await Promise.all(
        this.urls.map(async (url) => {
          const at = new URL(url);
          at.searchParams.append('name[]', EDGE_SERIES.saturated);
          const response = await this.fetchImpl(at, {
            signal: AbortSignal.timeout(READ_TIMEOUT_MS),
            headers: { accept: EXPOSITION_MEDIA_TYPE },
          }).catch(() => null);
          if (!response?.ok) return;
          const text = await response.text().catch(() => '');
          for (const [key, fields] of saturatedFromText(text)) next.set(key, fields);
        }),
      );
      this.ports = next;
    })().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  /** Why `category` of a direction between these ports is unknown, if one of their counters is saturated. */
  reasonFor(portKeys: readonly string[], category: CategoryName): string | undefined {
    for (const key of portKeys) {
      const reason = saturationReason(this.ports.get(key), category);
      if (reason) return reason;
    }
    return undefined;
  }
}
