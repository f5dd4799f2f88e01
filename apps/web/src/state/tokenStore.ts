import { useSyncExternalStore } from 'react';
import { storage } from './preferences.ts';

/** The optional API bearer token in localStorage, sent only with changes. */

const KEY = 'fabscope.apiToken';
const listeners = new Set<() => void>();

export function getApiToken(): string | null {
  const value = storage()?.getItem(KEY) ?? null;
  return value === null || value.trim() === '' ? null : value.trim();
}

export function setApiToken(token: string | null): void {
  const s = storage();
  if (!s) return;
  if (token === null || token.trim() === '') s.removeItem(KEY);
  else s.setItem(KEY, token.trim());
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY) listener();
  };
  globalThis.addEventListener?.('storage', onStorage);
  return () => {
    listeners.delete(listener);
    globalThis.removeEventListener?.('storage', onStorage);
  };
}

export function useApiToken(): string | null {
  return useSyncExternalStore(subscribe, getApiToken, () => null);
}
