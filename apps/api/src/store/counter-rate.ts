// The one counter-rate formula lives in @fabscope/topology (the fabric collector's rates at the
// edge use it too); the store's modules and tests import it from here.
export { type CounterRateLimits, counterRate, SATURATION_CEILINGS } from '@fabscope/topology';
