/** `make` wrapped so it runs once per object (a topology, a message): later calls get the same value. */
export function onePer<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    if (made.has(key)) return made.get(key) as V;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}
