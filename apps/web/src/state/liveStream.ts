import { createContext, useContext, useRef, useSyncExternalStore } from 'react';
import type { LiveSnapshot } from '../api/types.ts';
import { parseInstant } from '../lib/timeRange.ts';

/** The live stream's state: its newest message and how the connection is. */
export interface FabricStreamState {
  snapshot: LiveSnapshot | null;
  /** Browser time (ms) the snapshot arrived, or null before the first. */
  receivedAtMs: number | null;
  connection: StreamConnection;
  /** True when no message arrived for two of the server's ticks and a second more. */
  silent: boolean;
  /** The last problem with the stream (bad message, connection lost), cleared by a good message. */
  error: string | null;
}

export type StreamConnection = 'connecting' | 'open' | 'reconnecting';

export const INITIAL_STREAM_STATE: FabricStreamState = {
  snapshot: null,
  receivedAtMs: null,
  connection: 'connecting',
  silent: false,
  error: null,
};

/** The live stream's state outside React: a message re-renders only the components reading what changed. */
export class LiveStream {
  private state: FabricStreamState = INITIAL_STREAM_STATE;
  private readonly listeners = new Set<() => void>();

  readonly get = (): FabricStreamState => this.state;

  set(next: FabricStreamState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }

  update(change: (state: FabricStreamState) => FabricStreamState): void {
    this.set(change(this.state));
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };
}

const LiveStreamContext = createContext<LiveStream>(new LiveStream());

/** The page's live stream (main.tsx provides one; without a provider, one that never ticks). */
export const LiveStreamProvider = LiveStreamContext.Provider;

export function useLiveStream(): LiveStream {
  return useContext(LiveStreamContext);
}

/** Re-renders the component when a message changes `select`'s result; select only what is drawn. */
export function useLiveSelector<T>(
  select: (state: FabricStreamState) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): T {
  const stream = useLiveStream();
  // The selection last given: an equal one gives it again (useSyncExternalStore compares by identity).
  const last = useRef<{ value: T } | null>(null);
  const selected = (): T => {
    const value = select(stream.get());
    const held = last.current;
    if (held && isEqual(held.value, value)) return held.value;
    last.current = { value };
    return value;
  };
  return useSyncExternalStore(stream.subscribe, selected, selected);
}

/** The newest sample's time (ms), or null before the first message. */
export function latestMsOf(state: FabricStreamState): number | null {
  return parseInstant(state.snapshot?.time ?? null);
}
