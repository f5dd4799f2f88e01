import {
  type ArrayOptions,
  type ObjectOptions,
  type SchemaOptions,
  type TLiteralValue,
  type TObject,
  type TProperties,
  type TSchema,
  Type,
} from '@sinclair/typebox';

// Pieces every resource's schemas are made of.

/** An object that refuses the properties it does not name: every query string and request body. */
export const Closed = <T extends TProperties>(properties: T, options?: ObjectOptions) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** A value that is null when unknown (stale, not reported): never 0 in its place. */
export const Nullable = <T extends TSchema>(t: T, options?: SchemaOptions) =>
  Type.Union([t, Type.Null()], options);

/** One of `values` (JSON Schema's anyOf of consts, in their order). */
export const Literals = <const V extends TLiteralValue>(values: readonly V[], options?: SchemaOptions) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );

/** An object with one property per key, each of `schema` (its type keeps the keys). */
export function recordOf<K extends string, T extends TSchema>(
  keys: readonly K[],
  schema: T,
  options?: ObjectOptions,
): TObject<Record<K, T>> {
  return Type.Object(Object.fromEntries(keys.map((k) => [k, schema])) as Record<K, T>, options);
}

/** A quantity as a number in its base unit (at most `maximum`) or a number with a unit, as the emulator reads it. */
export const Quantity = (description: string, maximum: number) =>
  Type.Union(
    [
      Type.Number({ minimum: 0, maximum }),
      Type.String({
        minLength: 1,
        maxLength: 32,
        pattern: '^\\s*[0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]{1,3})?\\s*[a-zA-Z/]*\\s*$',
      }),
    ],
    { description: `${description}; at most ${maximum}` },
  );
/** A host named in a request. */
export const HostName = Type.String({ minLength: 1, maxLength: 256 });
/** Hosts named in a request: one at least, 100,000 at most. */
export const HostList = (options?: ArrayOptions) =>
  Type.Array(HostName, { minItems: 1, maxItems: 100_000, ...options });
