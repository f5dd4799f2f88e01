import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { sendError } from '../../http/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The answer costs far more than a page (an export of every direction, a history range, a
     * contention analysis): at most `maxExpensive` run at once, and none start while the process
     * is under pressure; the others are answered 503 with Retry-After.
     */
    expensive?: boolean;
    /**
     * An expensive route whose cost the concurrency limit alone bounds (a contention analysis of a
     * host list): it still runs while the process is under pressure, so the dashboard's check
     * answers on a big fabric whose loop lags between ticks, instead of a 503 for as long as it does.
     */
    runsUnderPressure?: boolean;
  }
}

export interface PressureOptions {
  /** Expensive requests running at once, every expensive route together (default 4). */
  maxExpensive?: number;
  /** Seconds a refused client is told to wait (Retry-After; default 5). */
  retryAfterSeconds?: number;
  /** Mean event-loop delay over a second (ms) beyond which expensive requests are refused (default 1000). */
  maxEventLoopDelayMs?: number;
  /** Resident memory beyond which expensive requests are refused (bytes; default none). */
  maxRssBytes?: number;
  /** The clock of the start's grace period (ms; default performance.now). */
  now?: () => number;
}

export const DEFAULT_MAX_EXPENSIVE = 4;
export const DEFAULT_RETRY_AFTER_SECONDS = 5;
export const DEFAULT_MAX_EVENT_LOOP_DELAY_MS = 1000;
/** How often the event-loop delay and memory are sampled (ms). */
const SAMPLE_INTERVAL_MS = 1000;

const PRESSURE_NAMES: Record<string, (value: number) => string> = {
  // Infinity: the loop was held through a whole sample interval (no delay was measured in it).
  eventLoopDelay: (v) =>
    Number.isFinite(v) ? `event-loop delay ${Math.round(v)} ms` : 'event loop held through the last second',
  rssBytes: (v) => `resident memory ${Math.round(v / 2 ** 20)} MiB`,
  heapUsedBytes: (v) => `heap ${Math.round(v / 2 ** 20)} MiB`,
  eventLoopUtilization: (v) => `event loop ${Math.round(v * 100)} % busy`,
};

/**
 * Keeps the event loop answering when expensive requests pile up. `@fastify/under-pressure`
 * samples the event-loop delay and memory every second (and gives them to /health); while either
 * is beyond its limit, expensive routes are refused and every other route still answers (a
 * load balancer's health check, the stream, a page of links). A counter of expensive requests in
 * flight refuses the one beyond `maxExpensive`. Both refusals are 503 with Retry-After and a
 * message saying which limit was met.
 */
async function pressureLimits(app: FastifyInstance, options: PressureOptions) {
  const maxExpensive = options.maxExpensive ?? DEFAULT_MAX_EXPENSIVE;
  const retryAfter = options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
  const refuse = (reply: FastifyReply, why: string) =>
    sendError(reply, 503, `${why}: retry after ${retryAfter} s`, { 'retry-after': String(retryAfter) });

  // The plugin's first figures cover the start (routes built, a fabric indexed): not load. They
  // count from two sample intervals after the app is ready.
  const now = options.now ?? (() => performance.now());
  let measuredFrom = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    measuredFrom = now() + 2 * SAMPLE_INTERVAL_MS;
  });
  await app.register(fastifyUnderPressure, {
    sampleInterval: SAMPLE_INTERVAL_MS,
    maxEventLoopDelay: options.maxEventLoopDelayMs ?? DEFAULT_MAX_EVENT_LOOP_DELAY_MS,
    ...(options.maxRssBytes ? { maxRssBytes: options.maxRssBytes } : {}),
    retryAfter,
    pressureHandler: (request, reply, type, value) => {
      // Only expensive work is refused: cheap answers are what keeps the process observable.
      const { expensive, runsUnderPressure } = request.routeOptions.config;
      if (!expensive || runsUnderPressure || now() < measuredFrom) return undefined;
      const name = PRESSURE_NAMES[type]?.(Number(value)) ?? type;
      // Sent here, as the plugin's README does: the request then goes no further.
      void refuse(reply, `the API is under pressure (${name}); exports, history ranges and analyses wait`);
      return undefined;
    },
  });

  let running = 0;
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config.expensive || reply.sent) return;
    if (running >= maxExpensive) {
      return refuse(
        reply,
        `${running} expensive requests (exports, history ranges, analyses) are running, the most this API runs at once`,
      );
    }
    running++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      running--;
    };
    // `close` comes whether the answer was sent whole or the client went away half-way.
    reply.raw.once('close', release);
    reply.raw.once('finish', release);
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
