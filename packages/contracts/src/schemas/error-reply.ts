import { type Static, Type } from '@sinclair/typebox';

/** The body of every 4xx and 5xx answer: the status, its reason phrase and what was wrong. */
export const ErrorReply = Type.Object(
  { statusCode: Type.Integer(), error: Type.String(), message: Type.String() },
  { $id: 'ErrorReply', description: 'A 4xx or 5xx answer: `message` says what was wrong' },
);
export type ErrorBody = Static<typeof ErrorReply>;
