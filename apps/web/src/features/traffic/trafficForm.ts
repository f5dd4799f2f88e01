import { TRAFFIC_PATTERNS } from '@fabscope/contracts/names';
import type { TrafficRequest } from '../../api/types.ts';

/** The Traffic form, pure: every pattern, its argument, its hosts, and the request or why not. */

export type TrafficKind = TrafficRequest['pattern'];

/** Every pattern the API offers, the contract's own list (a plain module: no schema in the bundle). */
export const TRAFFIC_KINDS: readonly TrafficKind[] = TRAFFIC_PATTERNS;

export interface TrafficDraft {
  kind: TrafficKind;
  /** The pattern's argument: pairs, K, seed, receiver, sender-receiver, server. */
  arg: string;
  /** iperf's parallel streams (-P). */
  streams: string;
  /** Hosts a collective runs on, names separated by commas or spaces; empty: every host. */
  hosts: string;
}

/** The argument each kind takes, for the form's label and placeholder; null when none. */
export const TRAFFIC_ARG: Record<
  TrafficKind,
  { label: string; placeholder: string; optional?: boolean } | null
> = {
  pairs: { label: 'Pairs', placeholder: 'nodeA-nodeC,nodeB-nodeD' },
  shift: { label: 'K', placeholder: '1' },
  permutation: { label: 'Seed', placeholder: '1', optional: true },
  'all-to-all': null,
  incast: { label: 'Receiver', placeholder: 'nodeA' },
  bisection: null,
  iperf: { label: 'Sender-receiver', placeholder: 'nodeA-nodeC' },
  storage: { label: 'Server', placeholder: 'lustre-server-ib' },
};

/** Collectives that run on a host list (all hosts when none is given). */
export const TAKES_HOSTS: ReadonlySet<TrafficKind> = new Set([
  'shift',
  'permutation',
  'all-to-all',
  'bisection',
]);

export type TrafficDraftResult = { ok: true; request: TrafficRequest } | { ok: false; message: string };

const names = (text: string) => text.split(/[\s,]+/).filter((n) => n !== '');

function pairOf(text: string): [string, string] | null {
  const dash = text.indexOf('-', 1);
  // Host names may hold dashes (lustre-server-ib): `a-b` splits at the one dash that leaves two
  // names only when there is one; with more, write the pair as `a>b`.
  const arrow = text.indexOf('>');
  const at = arrow > 0 ? arrow : text.split('-').length === 2 ? dash : -1;
  if (at <= 0) return null;
  const from = text.slice(0, at).trim();
  const to = text.slice(at + 1).trim();
  return from !== '' && to !== '' && from !== to ? [from, to] : null;
}

/** The request a draft makes, or the reason it makes none, as the form says it. */
export function trafficRequestOf(draft: TrafficDraft): TrafficDraftResult {
  const arg = draft.arg.trim();
  const hosts = names(draft.hosts);
  const withHosts = TAKES_HOSTS.has(draft.kind) && hosts.length > 0 ? { hosts } : {};
  switch (draft.kind) {
    case 'pairs': {
      const items = arg.split(/\s*,\s*/).filter((p) => p !== '');
      const pairs = items.map(pairOf);
      if (items.length === 0 || pairs.some((p) => p === null))
        return {
          ok: false,
          message: 'Pairs are sender-receiver, separated by commas (a>b where names hold dashes)',
        };
      return { ok: true, request: { pattern: 'pairs', pairs: pairs as [string, string][] } };
    }
    case 'shift': {
      const k = Number(arg);
      if (!/^-?\d+$/.test(arg) || k === 0) return { ok: false, message: 'K must be a whole number, not 0' };
      return { ok: true, request: { pattern: 'shift', k, ...withHosts } };
    }
    case 'permutation': {
      if (arg !== '' && !/^\d{1,10}$/.test(arg)) return { ok: false, message: 'The seed is a whole number' };
      return {
        ok: true,
        request: { pattern: 'permutation', ...(arg === '' ? {} : { seed: Number(arg) }), ...withHosts },
      };
    }
    case 'all-to-all':
    case 'bisection':
      return { ok: true, request: { pattern: draft.kind, ...withHosts } };
    case 'incast':
      if (arg === '' || /[\s,]/.test(arg)) return { ok: false, message: 'Name the receiver' };
      return { ok: true, request: { pattern: 'incast', to: arg } };
    case 'iperf': {
      const pair = pairOf(arg);
      if (!pair) return { ok: false, message: 'iperf runs sender-receiver (a>b where names hold dashes)' };
      const streams = draft.streams.trim() === '' ? 1 : Number(draft.streams);
      if (!Number.isInteger(streams) || streams < 1 || streams > 1024)
        return { ok: false, message: 'Streams (-P) are 1 to 1024' };
      return { ok: true, request: { pattern: 'iperf', from: pair[0], to: pair[1], streams } };
    }
    case 'storage':
      if (arg === '' || /[\s,]/.test(arg)) return { ok: false, message: 'Name the storage server' };
      return { ok: true, request: { pattern: 'storage', server: arg } };
  }
}
