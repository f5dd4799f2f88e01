import type { Drift, DriftFindingRecord, TopologyStatus } from '@fabscope/contracts';

const KIND_LABELS: Record<DriftFindingRecord['kind'], string> = {
  'missing-link': 'missing',
  'extra-link': 'extra',
  miswired: 'miswired',
  'wrong-rate': 'wrong speed',
  'missing-node': 'node missing',
  'extra-node': 'node extra',
};

export function driftKindLabel(kind: DriftFindingRecord['kind']): string {
  return KIND_LABELS[kind] ?? kind;
}

/** Whether the topology panel has anything to show: drift configured, or a topology changed since drawn. */
export function showsTopologyPanel(status: TopologyStatus | null): boolean {
  return status !== null && (status.drift.configured || status.changed);
}

/** The note above the findings: how many, of how many, and how many still wait for the window. */
export function driftSummary(drift: Drift): string {
  if (!drift.configured) return drift.reason ?? 'No intended design configured.';
  const shown = drift.findings.length;
  const parts = [
    drift.total === 0
      ? 'Cabled as designed'
      : shown < drift.total
        ? `${shown} of ${drift.total} findings`
        : `${drift.total} finding${drift.total === 1 ? '' : 's'}`,
  ];
  if (drift.pending > 0) {
    parts.push(`${drift.pending} more waiting for the ${drift.stableSeconds} s stability window`);
  }
  return `${parts.join('; ')}.`;
}

/** "edge1/3 → core1/5" for a finding's cable, or "—". */
export function cableText(cable: DriftFindingRecord['expected']): string {
  if (!cable) return '—';
  return `${cable.a.node}/${cable.a.port} — ${cable.b.node}/${cable.b.port}${cable.widthSpeed ? ` (${cable.widthSpeed})` : ''}`;
}

/** How often a finding came: "flapping ×4", or "" for one that came once. */
export function flapText(finding: DriftFindingRecord): string {
  return finding.flapping ? `flapping ×${finding.count}` : '';
}

/** A finding's time as the dashboard writes times: `HH:MM:SS` in UTC (the date too when not today). */
export function sinceText(iso: string, nowMs: number): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const text = new Date(ms).toISOString();
  const sameDay = text.slice(0, 10) === new Date(nowMs).toISOString().slice(0, 10);
  return sameDay ? text.slice(11, 19) : `${text.slice(0, 10)} ${text.slice(11, 19)}`;
}
