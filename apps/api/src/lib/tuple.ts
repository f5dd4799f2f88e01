/** A tuple of `N` elements of type `T`: what a fixed-length destructuring of an array is cast to. */
export type Tuple<T, N extends number, R extends T[] = []> = R['length'] extends N
  ? R
  : Tuple<T, N, [...R, T]>;
