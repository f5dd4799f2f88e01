import { Type } from '@sinclair/typebox';

/** A number that is null when unknown (stale, not reported): never 0 in its place. */
export const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);
