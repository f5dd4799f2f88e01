import type { FastifyReply } from 'fastify';
import { type EmulatorClient, UpstreamError } from '../emulator-client.ts';
import { sendError } from '../http/errors.ts';

/** Runs `action` against the emulator: 409 without one, its 4xx passed through, 502 when it fails. */
export async function withEmulator<T>(
  emulator: EmulatorClient | null,
  reply: FastifyReply,
  action: (emulator: EmulatorClient) => Promise<T>,
) {
  if (!emulator) {
    return sendError(
      reply,
      409,
      'no emulator is attached (FABSCOPE_EMULATOR_URL): traffic, faults and AR control need one',
    );
  }
  try {
    return await action(emulator);
  } catch (error) {
    if (error instanceof UpstreamError) {
      return sendError(reply, error.statusCode, error.message);
    }
    throw error;
  }
}
