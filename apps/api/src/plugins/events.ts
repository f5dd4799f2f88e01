import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { Alarms } from '../events/alarms.ts';
import type { EventLog } from '../events/event-log.ts';
import { HealthWatch } from '../events/health-watch.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Changes and incidents for `GET /events`; null: the store's own events only. */
    readonly events: EventLog | null;
    /** Grouped alarms with a lifecycle, fed by the health watch (events/alarms.ts); null without events. */
    readonly alarms: Alarms | null;
  }
}

/**
 * Decorates `events` and `alarms`, and watches every tick for thresholds crossed and collection
 * gaps, which go to the event log and the alarms once per tick (events/health-watch.ts).
 */
export const eventsPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { events?: EventLog | undefined }) => {
    const events = options.events ?? null;
    const alarms = events ? new Alarms(events) : null;
    app.decorate('events', events);
    app.decorate('alarms', alarms);
    if (!events || !alarms) return;
    const watch = new HealthWatch(events, app.fabric.linkIndex, undefined, alarms);
    // The tick's frame, in the drawing it was computed in (the watch follows it).
    const stop = app.sampler.onTick((tick) => {
      return watch.observeInTurns(Date.parse(tick.time), tick.frame);
    });
    app.addHook('onClose', async () => stop());
  },
  { name: 'events', dependencies: ['fabric', 'store'] },
);
