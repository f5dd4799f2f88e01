import type { FindReply } from '@fabscope/contracts';
import { PORT_GAUGES } from '@fabscope/contracts/metrics';

/** What the port search asks for: `edge1/4`, `edge1`, a GUID, or a LID (`12`, `lid:12`). */
export interface PortTarget {
  node: string;
  port?: number;
}

export function parsePortTarget(text: string): PortTarget | null {
  const t = text.trim();
  if (t === '') return null;
  if (/^\d{1,5}$/.test(t)) return { node: `lid:${Number(t)}` };
  const slash = t.lastIndexOf('/');
  if (slash > 0 && /^\d{1,3}$/.test(t.slice(slash + 1))) {
    const port = Number(t.slice(slash + 1));
    if (port <= 255) return { node: t.slice(0, slash), port };
  }
  return { node: t };
}

/** The URL form of a target (`?port=edge1/4`), read back by parsePortTarget. */
export function portTargetText(target: PortTarget): string {
  return target.port === undefined ? target.node : `${target.node}/${target.port}`;
}

/** A port's `errors` fields that are values, not counters: shown as they are, not as a rate. */
export const PORT_GAUGE_FIELDS: readonly string[] = Object.keys(PORT_GAUGES);

export function isPortGauge(field: string): boolean {
  return PORT_GAUGE_FIELDS.includes(field);
}

const FIELD_LABELS: Record<FindReply['matches'][number]['field'], string> = {
  name: '',
  port: '',
  description: 'NodeDescription',
  guid: 'GUID',
  lid: 'LID',
};

/** A Find match as the list reads it: what opens, its kind, and what matched where that is not its name. */
/**
 * The options Find offers for the text as typed: none while the answer in hand is for older text, so Enter
 * pressed before the new answer opens what was typed, never the old list's first match.
 */
export function optionsForTyped(found: FindReply | null, typed: string): { value: string; label: string }[] {
  return found !== null && found.query === typed ? found.matches.map(findOption) : [];
}

/**
 * What Open (or Enter on no option) does with the typed text: the best match of the answer to that text, the
 * text itself when nothing matched it, or wait for the answer when the one in hand is for older text.
 */
export function openOnFind(
  found: FindReply | null,
  typed: string,
): { open: string } | { wait: true } | { openTyped: true } {
  if (found === null || found.query !== typed) return { wait: true };
  const best = found.matches[0];
  return best ? { open: best.target } : { openTyped: true };
}

export function findOption(match: FindReply['matches'][number]): { value: string; label: string } {
  const kind = match.target.includes('/') ? 'port' : match.type;
  const field = FIELD_LABELS[match.field];
  return {
    value: match.target,
    label: `${match.target} · ${kind}${field ? ` · ${field} ${match.text}` : ''}`,
  };
}
