/** How the cabled fabric differs from its design, as UFM's Topology Compare reports it. */
import { endText, linkText } from './describe.ts';
import { diffTopology, linkKey } from './diff.ts';
import type { TopologyEnd, TopologyLinkRecord, TopologySnapshot } from './snapshot.ts';

export type DriftKind =
  | 'missing-link'
  | 'extra-link'
  | 'miswired'
  | 'wrong-rate'
  | 'missing-node'
  | 'extra-node';
export const DRIFT_KINDS: readonly DriftKind[] = [
  'missing-link',
  'extra-link',
  'miswired',
  'wrong-rate',
  'missing-node',
  'extra-node',
];

export interface DriftFinding {
  kind: DriftKind;
  /** The same finding in two comparisons has the same key (a flapping cable is one finding). */
  key: string;
  /** What it is about: a link `a/port--b/port`, a port `node/port` (miswired), a node. */
  subject: string;
  /** For people: "expected edge1/3--core1/1, found edge1/3--core1/5". */
  detail: string;
  /** The cable as designed; null for extra links and nodes. */
  expected: TopologyLinkRecord | null;
  /** The cable as found; null for missing links and nodes. */
  actual: TopologyLinkRecord | null;
}

function rateText(link: TopologyLinkRecord): string {
  return link.widthSpeed ?? `${link.rateGbps} Gb/s`;
}

function farEnd(link: TopologyLinkRecord, port: TopologyEnd): TopologyEnd {
  return link.a.node === port.node && link.a.port === port.port ? link.b : link.a;
}

/** Findings of `actual` against `expected`; LIDs and GUIDs are not drift (the SM assigns, HCAs get replaced). */
export function topologyDrift(expected: TopologySnapshot, actual: TopologySnapshot): DriftFinding[] {
  const findings: DriftFinding[] = [];
  for (const c of diffTopology(expected, actual)) {
    switch (c.kind) {
      case 'link-removed':
        findings.push({
          kind: 'missing-link',
          key: `missing-link ${linkKey(c.link)}`,
          subject: linkText(c.link),
          detail: `missing: ${linkText(c.link)} (${rateText(c.link)}) is not cabled`,
          expected: c.link,
          actual: null,
        });
        break;
      case 'link-added':
        findings.push({
          kind: 'extra-link',
          key: `extra-link ${linkKey(c.link)}`,
          subject: linkText(c.link),
          detail: `extra: ${linkText(c.link)} (${rateText(c.link)}) is not in the design`,
          expected: null,
          actual: c.link,
        });
        break;
      case 'link-moved': {
        const port = endText(c.port);
        findings.push({
          kind: 'miswired',
          key: `miswired ${linkKey(c.before)} ${linkKey(c.after)}`,
          subject: port,
          detail: `miswired: ${port} should be cabled to ${endText(farEnd(c.before, c.port))}, is cabled to ${endText(farEnd(c.after, c.port))}`,
          expected: c.before,
          actual: c.after,
        });
        break;
      }
      case 'link-rate-changed':
        findings.push({
          kind: 'wrong-rate',
          key: `wrong-rate ${linkKey(c.before)}`,
          subject: linkText(c.before),
          detail: `wrong speed or width: ${linkText(c.before)} is ${rateText(c.after)}, designed ${rateText(c.before)}`,
          expected: c.before,
          actual: c.after,
        });
        break;
      case 'node-disappeared':
        findings.push({
          kind: 'missing-node',
          key: `missing-node ${c.node.id}`,
          subject: c.node.id,
          detail: `missing: ${c.node.type} ${c.node.id} is not in the fabric`,
          expected: null,
          actual: null,
        });
        break;
      case 'node-appeared':
        findings.push({
          kind: 'extra-node',
          key: `extra-node ${c.node.id}`,
          subject: c.node.id,
          detail: `extra: ${c.node.type} ${c.node.id} (${c.node.guid}) is not in the design`,
          expected: null,
          actual: null,
        });
        break;
      case 'node-changed':
        break;
    }
  }
  return findings;
}
