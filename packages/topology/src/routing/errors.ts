/** The fabric cannot be routed by the chosen engine (e.g. fattree on a graph that is not a tree). */
export class RoutingError extends Error {
  override name = 'RoutingError';
}
