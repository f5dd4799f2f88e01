import { useSyncExternalStore } from 'react';
import { storage, storedValues } from './preferences.ts';

/** The optional API bearer token in localStorage, sent only with changes. */

const KEY = 'fabscope.apiToken';
const store = storedValues((key) => key === KEY);

export function getApiToken(): string | null {
  const value = storage()?.getItem(KEY) ?? null;
  return value === null || value.trim() === '' ? null : value.trim();
}

export function setApiToken(token: string | null): void {
  const s = storage();
  if (!s) return;
  if (token === null || token.trim() === '') s.removeItem(KEY);
  else s.setItem(KEY, token.trim());
  store.notify();
}

export function useApiToken(): string | null {
  return useSyncExternalStore(store.subscribe, getApiToken, () => null);
}
