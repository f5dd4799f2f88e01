import { type Static, Type } from '@sinclair/typebox';
import { Closed, Literals } from './common.ts';
import { NodeTypeSchema } from './emulator.ts';

/** Find's answer is a type-ahead list: a page of the best matches, never the fabric. */
export const FIND_LIMIT_MAX = 100;

/** `GET /find`: nodes and ports by part of a name, description, GUID, LID or `node/port`. */
export const FindQuery = Closed({
  q: Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'Part of a name, NodeDescription, GUID (0x…), LID (12 or lid:12) or node/port; any case',
  }),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: FIND_LIMIT_MAX, default: 20, description: 'Matches listed' }),
  ),
});
export type FindQuery = Static<typeof FindQuery>;

export const FindMatchSchema = Type.Object({
  target: Type.String({ description: 'What to open: a node name or node/port (GET /port)' }),
  type: NodeTypeSchema,
  field: Literals(['name', 'description', 'guid', 'lid', 'port'] as const, {
    description: 'What the query matched',
  }),
  text: Type.String({ description: 'The text that matched, as the fabric writes it' }),
  rank: Literals(['exact', 'prefix', 'substring'] as const),
});

export const FindReplySchema = Type.Object({
  query: Type.String(),
  matches: Type.Array(FindMatchSchema, {
    description:
      'Exact matches first, then those starting with the query, then those holding it; natural order within each',
  }),
  total: Type.Integer({ description: 'Every node or port that matched; more than matches.length when cut' }),
});
export type FindReply = Static<typeof FindReplySchema>;
