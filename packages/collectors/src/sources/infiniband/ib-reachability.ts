import type { IbPortReading } from './ib-port-record.ts';

/**
 * Sweeps a node is left alone after its n-th read in a row that nothing answered: 2^(n-1), at most
 * `maxSweeps`. Bounds what a node the subnet cannot route to costs, should discovery still find it.
 */
export const UNANSWERED_BACKOFF = { maxSweeps: 64 } as const;

interface Unanswered {
  /** Reads in a row that nothing answered. */
  misses: number;
  /** The sweep from which it is read again (once a discovery has run since its last miss). */
  retryAtSweep: number;
  /** No discovery since its last miss: whether the subnet still has it is not known. */
  awaitingDiscovery: boolean;
  sinceMs: number;
}

/**
 * Whether any MAD of a port's read was answered (a status answer counts: the node is there); `stateRead`:
 * the reader asked PortInfo (perfquery's state is discovery's, no answer).
 */
export function answered(reading: IbPortReading, stateRead: boolean): boolean {
  return (
    (stateRead && reading.portState !== null) ||
    reading.transmitBytes !== null ||
    reading.errors !== null ||
    (reading.failure !== undefined && /MAD status|malformed/.test(reading.failure))
  );
}

/**
 * Which nodes the collector sends MADs to. A MAD to a LID the subnet cannot route (a switch unlinked, its
 * hosts behind it) dies in a switch on the way and counts there as PortRcvSwitchRelayErrors, on the
 * collector's own attach link: so a node the last discovery did not find gets none, and a node whose
 * read nothing answered gets none until a discovery finds it, then again only after its backoff.
 */
export class IbReachability {
  #found: ReadonlySet<string> | null = null;
  readonly #unanswered = new Map<string, Unanswered>();
  #sweep = 0;

  /** After a discovery: the node GUIDs it found. */
  discovered(nodes: ReadonlySet<string>): void {
    this.#found = nodes;
    for (const u of this.#unanswered.values()) u.awaitingDiscovery = false;
  }

  /** Whether this sweep reads the node. */
  reads(guid: string): boolean {
    if (this.#found !== null && !this.#found.has(guid)) return false;
    const u = this.#unanswered.get(guid);
    return u === undefined || (!u.awaitingDiscovery && this.#sweep >= u.retryAtSweep);
  }

  /** Why a node is not read, for its ports' readings. */
  reason(guid: string): string {
    const u = this.#unanswered.get(guid);
    const since = u ? ` since ${new Date(u.sinceMs).toISOString()}` : '';
    if (this.#found !== null && !this.#found.has(guid)) {
      return `not read: discovery does not find the node${since}; no MADs to it until it does`;
    }
    return `not read: unanswered ${u?.misses ?? 0} time(s) in a row${since}; asked again at a later sweep`;
  }

  /**
   * After a sweep: each node read and whether anything of it answered. True when a node went unanswered:
   * discover again, to learn whether the subnet still has it.
   */
  swept(nodes: ReadonlyMap<string, boolean>, nowMs: number): boolean {
    this.#sweep++;
    let unanswered = false;
    for (const [guid, ok] of nodes) {
      if (ok) {
        this.#unanswered.delete(guid);
        continue;
      }
      const before = this.#unanswered.get(guid);
      const misses = (before?.misses ?? 0) + 1;
      this.#unanswered.set(guid, {
        misses,
        retryAtSweep: this.#sweep + Math.min(2 ** (misses - 1), UNANSWERED_BACKOFF.maxSweeps),
        awaitingDiscovery: true,
        sinceMs: before?.sinceMs ?? nowMs,
      });
      unanswered = true;
    }
    return unanswered;
  }

  /** Forgets nodes no longer in the port map: what is kept is bounded by the subnet. */
  retain(nodes: ReadonlySet<string>): void {
    for (const guid of this.#unanswered.keys()) if (!nodes.has(guid)) this.#unanswered.delete(guid);
  }
}
