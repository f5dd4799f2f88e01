import { useCallback, useState } from 'react';

/**
 * One shareable view setting kept in the URL query (e.g. `?kind=isl&top=20`), so a link to the
 * dashboard opens the same view. Written with replaceState: no history entry per change.
 */
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
