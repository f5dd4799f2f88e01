/** How the cabled fabric differs from its design, as UFM's Topology Compare reports it. */
import type { DriftKind } from '@fabscope/contracts/names';
import { endText, farEnd, linkText, rateText } from './describe.ts';
import { diffTopology, linkKey } from './diff.ts';
import type { TopologyLinkRecord, TopologySnapshot } from './snapshot.ts';

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

/** Findings of `actual` against `expected`; LIDs and GUIDs are not drift (the SM assigns, HCAs get replaced). */
export function topologyDrift(expected: TopologySnapshot, actual: TopologySnapshot): DriftFinding[] {
  const findings: DriftFinding[] = [];
  for (const c of diffTopology(expected, actual)) {
    switch (c.kind) {
      case 'link-removed':
      case 'link-added': {
        const missing = c.kind === 'link-removed';
        const kind = missing ? 'missing-link' : 'extra-link';
        const subject = linkText(c.link);
        findings.push({
          kind,
          key: `${kind} ${linkKey(c.link)}`,
          subject,
          detail: missing
            ? `missing: ${subject} (${rateText(c.link)}) is not cabled`
            : `extra: ${subject} (${rateText(c.link)}) is not in the design`,
          expected: missing ? c.link : null,
          actual: missing ? null : c.link,
        });
        break;
      }
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
      case 'node-appeared': {
        const missing = c.kind === 'node-disappeared';
        const kind = missing ? 'missing-node' : 'extra-node';
        findings.push({
          kind,
          key: `${kind} ${c.node.id}`,
          subject: c.node.id,
          detail: missing
            ? `missing: ${c.node.type} ${c.node.id} is not in the fabric`
            : `extra: ${c.node.type} ${c.node.id} (${c.node.guid}) is not in the design`,
          expected: null,
          actual: null,
        });
        break;
      }
    }
  }
  return findings;
}
