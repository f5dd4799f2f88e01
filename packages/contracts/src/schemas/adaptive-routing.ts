import { type Static, Type } from '@sinclair/typebox';
import { Literals, Nullable } from './common.ts';

export const AdaptiveRoutingSchema = Type.Object({
  enabled: Type.Boolean({ description: 'opafm <Enable>' }),
  lostRouteOnly: Type.Boolean({ description: 'opafm <LostRouteOnly>: reroute only around failed links' }),
  algorithm: Literals([0, 1, 2], {
    description: '0 Random, 1 Greedy, 2 GreedyRandom',
  }),
  arFrequency: Type.Integer({
    minimum: 0,
    maximum: 7,
    description: 'n: at least 2^n × 64 ms between adjustments',
  }),
  threshold: Type.Integer({
    minimum: 0,
    maximum: 7,
    description: '0 firmware default; 1..7 = 100, 90, 80, 70, 65, 60, 55 % ISL load before AR moves traffic',
  }),
});
export type AdaptiveRouting = Static<typeof AdaptiveRoutingSchema>;
export const AdaptiveRoutingPatch = Type.Partial(AdaptiveRoutingSchema, {
  additionalProperties: false,
  minProperties: 1,
});
export type AdaptiveRoutingPatch = Static<typeof AdaptiveRoutingPatch>;

/** Who manages adaptive routing: the demo's emulated fabric manager, or the site's opafm.xml. */
export const AdaptiveRoutingSource = Literals(['emulator', 'opafm.xml']);
/** The settings where the fabric has adaptive routing, with where they come from. */
export const AdaptiveRoutingAvailable = Type.Composite([
  AdaptiveRoutingSchema,
  Type.Object({ available: Type.Literal(true), source: AdaptiveRoutingSource }),
]);
export type AdaptiveRoutingAvailable = Static<typeof AdaptiveRoutingAvailable>;
/** The fabric has no adaptive routing fabscope can manage, and why (PUT answers 409 with it). */
export const AdaptiveRoutingUnavailable = Type.Object({
  available: Type.Literal(false),
  reason: Type.String({ description: 'e.g. "upstream OpenSM has no adaptive routing"' }),
});
export type AdaptiveRoutingUnavailable = Static<typeof AdaptiveRoutingUnavailable>;
/** `GET /adaptive-routing`: the settings (as before, plus `available: true`), or why there are none. */
export const AdaptiveRoutingStatusSchema = Type.Union([AdaptiveRoutingAvailable, AdaptiveRoutingUnavailable]);
export type AdaptiveRoutingStatus = Static<typeof AdaptiveRoutingStatusSchema>;

/** A command fabscope ran without a shell (opa-fm's config_check, the site's apply command). */
export const CommandOutcomeSchema = Type.Object({
  command: Type.Array(Type.String()),
  ok: Type.Boolean({ description: 'exited 0 in time' }),
  exitCode: Nullable(Type.Integer()),
  signal: Nullable(Type.String()),
  timedOut: Type.Boolean(),
  stdout: Type.String({ description: 'its last 4 KiB' }),
  stderr: Type.String({ description: 'its last 4 KiB' }),
  error: Type.Optional(Type.String({ description: 'why it could not be started' })),
  durationMs: Type.Number(),
});
export type CommandOutcome = Static<typeof CommandOutcomeSchema>;

/** What a PUT did to opafm.xml. */
export const OpafmXmlChangeSchema = Type.Object({
  file: Type.String(),
  written: Type.Boolean({
    description: 'false: the file already said so; nothing written, validated or applied',
  }),
  backup: Nullable(Type.String(), { description: 'copy of the file before the change' }),
  diff: Type.String({ description: 'unified diff of the <AdaptiveRouting> section' }),
  validator: Nullable(CommandOutcomeSchema, {
    description: 'config_check on the edited file',
  }),
  apply: Nullable(CommandOutcomeSchema, {
    description: 'FABSCOPE_OPAFM_APPLY, run after the write; null when none is set or nothing was written',
  }),
});
/** `PUT /adaptive-routing`: the new settings; with opafm.xml, what was done to the file. */
export const AdaptiveRoutingChangeSchema = Type.Composite([
  AdaptiveRoutingAvailable,
  Type.Object({ change: Type.Optional(OpafmXmlChangeSchema) }),
]);
export type AdaptiveRoutingChange = Static<typeof AdaptiveRoutingChangeSchema>;
