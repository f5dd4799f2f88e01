import type { LinkState, Snapshot } from '../src/top/api-types.ts';
import type { RenderInput } from '../src/top/render.ts';
import { initialViewState } from '../src/top/state.ts';

/** A link direction as GET /api/v1/links answers it (values recorded from ar-demo, seed pairs on). */
export function link(from: string, to: string, values: Partial<LinkState> = {}): LinkState {
  const [fromNode = '', fromPort = '1'] = from.split('/');
  const [toNode = '', toPort = '1'] = to.split('/');
  const isl = !fromNode.startsWith('node') && !toNode.startsWith('node');
  return {
    id: `${from}->${to}`,
    kind: isl ? 'isl' : 'host',
    from: { node: fromNode, port: Number(fromPort) },
    to: { node: toNode, port: Number(toPort) },
    utilization: 0,
    bytesPerSecond: 0,
    packetsPerSecond: 0,
    transmitWaitFraction: 0,
    linkUp: true,
    stale: false,
    ...values,
  };
}

function calm() {
  return { isl: [8, 0, 0, 0, 0], host: [8, 0, 0, 0, 0], unknown: 0 };
}

export const arDemoLinks: LinkState[] = [
  link('edge1/4', 'core2/1', {
    utilization: 0.9889,
    bytesPerSecond: 12.36e9,
    packetsPerSecond: 1.509e6,
    transmitWaitFraction: 0.4998,
  }),
  link('core2/2', 'edge2/4', { utilization: 0.9889, bytesPerSecond: 12.36e9, packetsPerSecond: 1.509e6 }),
  link('nodeA/1', 'edge1/1', {
    utilization: 0.4945,
    bytesPerSecond: 6.18e9,
    packetsPerSecond: 754_500,
    transmitWaitFraction: 0.4998,
  }),
  link('edge2/1', 'nodeC/1', { utilization: 0.4945, bytesPerSecond: 6.18e9, packetsPerSecond: 754_500 }),
  link('core1/1', 'edge1/3'),
];

export const arDemoSnapshot: Snapshot = {
  askedTime: null,
  health: { status: 'ok', store: 'embedded', lastSampleAgeSeconds: 0.2 },
  summary: {
    time: '2026-11-22T22:31:15.000Z',
    hostTransmitBytesPerSecond: 12.36e9,
    histogram: { isl: [6, 0, 0, 0, 0, 0, 0, 0, 0, 2], host: [4, 0, 0, 0, 4, 0, 0, 0, 0, 0] },
    staleLinks: 0,
    categories: {
      integrity: calm(),
      congestion: { isl: [6, 0, 0, 0, 2], host: [6, 0, 0, 0, 2], unknown: 0 },
      // No such counter on this fabric: every direction unknown, never 0.
      smaCongestion: { isl: [0, 0, 0, 0, 0], host: [0, 0, 0, 0, 0], unknown: 16 },
      bubble: calm(),
      security: calm(),
      routing: calm(),
    },
  },
  links: arDemoLinks,
  moreLinks: false,
  mostWaiting: arDemoLinks[0] ?? null,
  history: null,
  events: null,
};

export function input(values: Partial<RenderInput> = {}): RenderInput {
  return {
    url: 'http://127.0.0.1:8080',
    state: initialViewState,
    fabric: { name: 'ar-demo', fabricType: 'omnipath' },
    features: { history: false, events: false },
    snapshot: arDemoSnapshot,
    error: null,
    snapshotAtMs: Date.parse('2026-11-22T22:31:15.500Z'),
    nowMs: Date.parse('2026-11-22T22:31:16.000Z'),
    ...values,
  };
}
