import { useCallback, useState } from 'react';

/** One shareable view setting in the URL query, written with replaceState (no history entry). */
export function useUrlParam<T>(
  key: string,
  parse: (raw: string | null) => T,
  serialize: (value: T) => string | null,
): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => parse(new URLSearchParams(window.location.search).get(key)));
  const update = useCallback(
    (next: T) => {
      setValue(next);
      const url = new URL(window.location.href);
      const raw = serialize(next);
      if (raw === null) url.searchParams.delete(key);
      else url.searchParams.set(key, raw);
      window.history.replaceState(window.history.state, '', url);
    },
    [key, serialize],
  );
  return [value, update];
}
