import type { Drift, DriftFindingRecord } from '@fabscope/contracts';
import { describe, expect, it } from 'vitest';
import { cableText, driftKindLabel, driftSummary, flapText, showsTopologyPanel, sinceText } from './drift.ts';

const finding: DriftFindingRecord = {
  kind: 'miswired',
  subject: 'edge1/3',
  detail: 'miswired: edge1/3 should be cabled to core1/1, is cabled to core1/5',
  expected: { a: { node: 'edge1', port: 3 }, b: { node: 'core1', port: 1 }, kind: 'isl', rateGbps: 100 },
  actual: {
    a: { node: 'edge1', port: 3 },
    b: { node: 'core1', port: 5 },
    kind: 'isl',
    rateGbps: 100,
    widthSpeed: '4xEDR',
  },
  firstSeen: '2026-01-01T00:00:00.000Z',
  since: '2026-01-01T00:00:00.000Z',
  lastSeen: '2026-01-01T00:01:00.000Z',
  present: true,
  count: 1,
  flapping: false,
};
const drift = (over: Partial<Drift>): Drift => ({
  configured: true,
  stableSeconds: 30,
  total: 1,
  pending: 0,
  findings: [finding],
  ...over,
});

describe('drift panel text', () => {
  it('says how many findings, how many are listed, and how many wait for the window', () => {
    expect(driftSummary(drift({}))).toBe('1 finding.');
    expect(driftSummary(drift({ total: 3 }))).toBe('1 of 3 findings.');
    expect(driftSummary(drift({ total: 0, findings: [], pending: 2 }))).toBe(
      'Cabled as designed; 2 more waiting for the 30 s stability window.',
    );
    expect(driftSummary({ ...drift({}), configured: false, reason: 'set it' })).toBe('set it');
  });

  it('names kinds, cables and flapping for people', () => {
    expect(driftKindLabel('wrong-rate')).toBe('wrong speed');
    expect(cableText(finding.expected)).toBe('edge1/3 — core1/1');
    expect(cableText(finding.actual)).toBe('edge1/3 — core1/5 (4xEDR)');
    expect(cableText(null)).toBe('—');
    expect(flapText(finding)).toBe('');
    expect(flapText({ ...finding, flapping: true, count: 4 })).toBe('flapping ×4');
    expect(sinceText('2026-01-01T10:02:03.456Z', Date.parse('2026-01-01T23:00:00Z'))).toBe('10:02:03');
    expect(sinceText('2026-01-01T10:02:03.456Z', Date.parse('2026-01-02T01:00:00Z'))).toBe(
      '2026-01-01 10:02:03',
    );
  });

  it('is shown only when drift is configured or the topology changed since drawn', () => {
    const status = {
      live: false,
      intervalMs: null,
      version: 1,
      loadedVersion: 1,
      discoveredAt: null,
      changed: false,
      summary: 'no change',
      drift: { configured: false, findings: 0 },
    };
    expect(showsTopologyPanel(null)).toBe(false);
    expect(showsTopologyPanel(status)).toBe(false);
    expect(showsTopologyPanel({ ...status, changed: true })).toBe(true);
    expect(showsTopologyPanel({ ...status, drift: { configured: true, findings: 0 } })).toBe(true);
  });
});
