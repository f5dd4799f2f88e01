import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { sendError } from '../../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Costs far more than a page: at most MAX_EXPENSIVE at once, none started under pressure (503). */
    expensive?: boolean;
    /** Expensive, but bounded by the concurrency limit alone: still runs while the process is under pressure. */
    runsUnderPressure?: boolean;
  }
}

export interface PressureOptions {
  /** Seconds a refused client is told to wait (Retry-After; default 5). */
  retryAfterSeconds?: number;
  /** Mean event-loop delay over a second (ms) beyond which expensive requests are refused (default 1000). */
  maxEventLoopDelayMs?: number;
  /** The clock of the start's grace period (ms; default performance.now). */
  now?: () => number;
}

/** How often the event-loop delay is sampled (ms). */
const SAMPLE_INTERVAL_MS = 1000;
/** Expensive requests running at once, every expensive route together. */
const MAX_EXPENSIVE = 4;

/**
 * Keeps the event loop answering when expensive requests pile up: beyond the event-loop delay limit,
 * or MAX_EXPENSIVE in flight, expensive routes get 503 with Retry-After; others answer.
 */
async function pressureLimits(app: FastifyInstance, options: PressureOptions) {
  const retryAfter = options.retryAfterSeconds ?? 5;
  const refuse = (reply: FastifyReply, why: string) =>
    sendError(reply, 503, `${why}: retry after ${retryAfter} s`, { 'retry-after': String(retryAfter) });

  // The first figures cover the start, not load: counted from two sample intervals after ready.
  const now = options.now ?? (() => performance.now());
  let measuredFrom = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    measuredFrom = now() + 2 * SAMPLE_INTERVAL_MS;
  });
  await app.register(fastifyUnderPressure, {
    sampleInterval: SAMPLE_INTERVAL_MS,
    maxEventLoopDelay: options.maxEventLoopDelayMs ?? 1000,
    retryAfter,
    pressureHandler: (request, reply, _type, value) => {
      const { expensive, runsUnderPressure } = request.routeOptions.config;
      if (!expensive || runsUnderPressure || now() < measuredFrom) return undefined;
      // Only the event-loop delay has a limit; Infinity is a loop held through the whole second.
      const delay = Number(value);
      const name = Number.isFinite(delay)
        ? `event-loop delay ${Math.round(delay)} ms`
        : 'event loop held through the last second';
      void refuse(reply, `the API is under pressure (${name}); exports, history ranges and analyses wait`);
      return undefined;
    },
  });

  let running = 0;
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config.expensive || reply.sent) return;
    if (running >= MAX_EXPENSIVE) {
      return refuse(
        reply,
        `${running} expensive requests (exports, history ranges, analyses) are running, the most this API runs at once`,
      );
    }
    running++;
    // A response emits close once, when it finished or its connection ended first.
    reply.raw.once('close', () => running--);
  });
  app.decorate('expensiveRunning', () => running);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Expensive requests in flight now. */
    expensiveRunning: () => number;
  }
}

/** Registers the pressure limits on the root instance: every route's requests pass them. */
export const underPressurePlugin = fastifyPlugin(pressureLimits, { name: 'under-pressure-limits' });
