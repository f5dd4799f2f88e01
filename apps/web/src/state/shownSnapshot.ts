import type { LinkDirectionState } from '@fabscope/contracts';
import { createContext, useContext } from 'react';
import type { CompactSnapshot, LiveSnapshot } from '../api/types.ts';
import { isCompact } from '../lib/channelValues.ts';
import { assessFreshness } from '../lib/freshness.ts';
import { onePer } from '../lib/onePer.ts';
import { type RankableLinks, rankableLinks, staleDirectionCount } from '../lib/snapshot.ts';
import { type FabricStreamState, useLiveSelector } from './liveStream.ts';

/** Which instant the data panels show: live (`atMs` null), or a past one and its snapshot (null while it loads). */
export interface Shown {
  atMs: number | null;
  past: LiveSnapshot | null;
}

const ShownContext = createContext<Shown>({ atMs: null, past: null });

/** Given by the dashboard (App) around its panels; it changes when the instant shown does. */
export const ShownProvider = ShownContext.Provider;

/** What the data panels show: the newest live message, or the chosen past instant (null while loading). */
export function useShownSnapshot(): LiveSnapshot | null {
  const { atMs, past } = useContext(ShownContext);
  return useLiveSelector((s) => (atMs === null ? s.snapshot : past));
}

/** The live stream's newest message, whatever instant the data panels show (the tools act on now). */
export function useLiveSnapshot(): LiveSnapshot | null {
  return useLiveSelector((s) => s.snapshot);
}

// What the panels derive from a snapshot, made once per snapshot whoever asks first.
const samplesOf = onePer((snapshot: LiveSnapshot): ReadonlyMap<string, LinkDirectionState> | null =>
  isCompact(snapshot) ? null : new Map(snapshot.links.map((l) => [l.id, l])),
);
const rankedOf = onePer(rankableLinks);

/** The snapshot's directions by id (full encoding); null for a compact one. */
export function snapshotSamples(
  snapshot: LiveSnapshot | null,
): ReadonlyMap<string, LinkDirectionState> | null {
  return snapshot ? samplesOf(snapshot) : null;
}

/** The snapshot when compact (big fabrics). */
export function snapshotCompact(snapshot: LiveSnapshot | null): CompactSnapshot | null {
  return snapshot && isCompact(snapshot) ? snapshot : null;
}

/** The directions the ranking and the summary rank. */
export function snapshotRanked(snapshot: LiveSnapshot | null): RankableLinks | null {
  return snapshot ? rankedOf(snapshot) : null;
}

/** The live data is stale as of the last message, or the stream went silent (the header shows live ages). */
export const streamStale = onePer((s: FabricStreamState): boolean => {
  return (
    s.silent ||
    (s.snapshot !== null &&
      assessFreshness({
        nowMs: s.receivedAtMs ?? 0,
        receivedAtMs: s.receivedAtMs,
        lastSampleAgeSeconds: s.snapshot.health.lastSampleAgeSeconds,
        staleLinkCount: staleDirectionCount(s.snapshot),
        policy: s.snapshot.health,
      }).state === 'stale')
  );
});
