import { formatGbpsRate, formatRate, formatRateTicks, type RateUnit } from '@fabscope/contracts/units';
import { useMemo, useSyncExternalStore } from 'react';

/** The viewer's rate unit and theme in localStorage, not in the URL a shared link carries. */

export type ThemeChoice = 'system' | 'light' | 'dark';

interface Preferences {
  rateUnit: RateUnit;
  theme: ThemeChoice;
}

const DEFAULTS: Preferences = { rateUnit: 'bytes', theme: 'system' };
const ALLOWED: { [K in keyof Preferences]: readonly Preferences[K][] } = {
  rateUnit: ['bytes', 'bits'],
  theme: ['system', 'light', 'dark'],
};
const KEYS: Record<keyof Preferences, string> = { rateUnit: 'fabscope.rateUnit', theme: 'fabscope.theme' };
/** This page's choices, for when localStorage is unavailable. */
const memory = new Map<keyof Preferences, string>();
/** The values read, so a render does not read localStorage; forgotten when another tab writes. */
const known = new Map<keyof Preferences, Preferences[keyof Preferences]>();

/** This browser's localStorage, or null where it is unavailable (or forbidden). */
export function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Listeners of some localStorage values: told by `notify()`, and when another tab writes a key `ours` accepts. */
export function storedValues(ours: (key: string | null) => boolean) {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      const onStorage = (event: StorageEvent) => {
        if (ours(event.key)) listener();
      };
      globalThis.addEventListener?.('storage', onStorage);
      return () => {
        listeners.delete(listener);
        globalThis.removeEventListener?.('storage', onStorage);
      };
    },
  };
}

export function getPreference<K extends keyof Preferences>(key: K): Preferences[K] {
  if (known.has(key)) return known.get(key) as Preferences[K];
  const raw = storage()?.getItem(KEYS[key]) ?? memory.get(key);
  const value = (ALLOWED[key] as readonly string[]).includes(raw ?? '')
    ? (raw as Preferences[K])
    : DEFAULTS[key];
  known.set(key, value);
  return value;
}

/** Sets `data-theme` on <html> before telling listeners, so they read the new theme's colours. */
export function applyTheme(theme: ThemeChoice): void {
  const root = globalThis.document?.documentElement;
  if (!root) return;
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.dataset.theme = theme;
}

export function setPreference<K extends keyof Preferences>(key: K, value: Preferences[K]): void {
  memory.set(key, value);
  known.set(key, value);
  if (key === 'theme') applyTheme(value as ThemeChoice);
  const s = storage();
  if (s) {
    try {
      s.setItem(KEYS[key], value);
    } catch {
      // Full or forbidden storage: the choice lasts for this page only.
    }
  }
  store.notify();
}

const store = storedValues((key) => {
  const changed = (Object.keys(KEYS) as (keyof Preferences)[]).find((k) => KEYS[k] === key);
  if (changed !== undefined) known.delete(changed);
  return changed !== undefined;
});

export function usePreference<K extends keyof Preferences>(key: K): Preferences[K] {
  return useSyncExternalStore(
    store.subscribe,
    () => getPreference(key),
    () => DEFAULTS[key],
  );
}

/** Rates written in the viewer's unit (lib/format.ts), for every rate a component shows. */
export interface RateFormat {
  unit: RateUnit;
  /** Bytes per second → "12.38 GB/s" / "99.04 Gb/s"; "—" when unknown. */
  rate: (bytesPerSecond: number | null | undefined) => string;
  /** Gb/s (the analysis' and the route's figures) → the same. */
  gbps: (gbps: number | null | undefined) => string;
  /** A chart axis' ticks, in one prefix. */
  ticks: (bytesPerSecond: readonly number[]) => string[];
}

export function rateFormat(unit: RateUnit): RateFormat {
  return {
    unit,
    rate: (v) => formatRate(v, unit),
    gbps: (v) => formatGbpsRate(v, unit),
    ticks: (v) => formatRateTicks(v, unit),
  };
}

/** The one way a component writes rates: in the unit chosen in the header, whatever it is. */
export function useRateFormat(): RateFormat {
  const unit = usePreference('rateUnit');
  return useMemo(() => rateFormat(unit), [unit]);
}
