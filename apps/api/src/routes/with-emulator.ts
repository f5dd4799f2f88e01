import type { FastifyReply } from 'fastify';
import type { ApiContext } from '../context.ts';
import { type EmulatorClient, UpstreamError } from '../emulator-client.ts';

export function badRequest(reply: FastifyReply, message: string) {
  return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message });
}

/** Runs `action` against the emulator: 409 without one, its 4xx passed through, 502 when it fails. */
export async function withEmulator<T>(
  ctx: ApiContext,
  reply: FastifyReply,
  action: (emulator: EmulatorClient) => Promise<T>,
) {
  if (!ctx.emulator) {
    return reply.code(409).send({
      statusCode: 409,
      error: 'Conflict',
      message: 'no emulator is attached (FABSCOPE_EMULATOR_URL): traffic, faults and AR control need one',
    });
  }
  try {
    return await action(ctx.emulator);
  } catch (error) {
    if (error instanceof UpstreamError) {
      const status = error.statusCode;
      return reply.code(status).send({
        statusCode: status,
        error: status < 500 ? 'Bad Request' : 'Bad Gateway',
        message: error.message,
      });
    }
    throw error;
  }
}
