import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { Alarms } from '../../events/alarms.ts';
import { CollectionWatch } from '../../events/collection-watch.ts';
import { HealthWatch } from '../../events/health-watch.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Grouped alarms with a lifecycle, fed by the health watch (events/alarms.ts); null without events. */
    readonly alarms: Alarms | null;
  }
}

/** Decorates `alarms`, and feeds thresholds crossed, collection gaps and stalls of each tick to the events and alarms. */
export const alarmsPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    const events = app.events;
    const alarms = events ? new Alarms(events) : null;
    app.decorate('alarms', alarms);
    if (!events || !alarms) return;
    const collection = new CollectionWatch(events);
    const watch = new HealthWatch(events, app.fabric.linkIndex, undefined, alarms, collection);
    const stop = app.sampler.onTick((tick) => {
      const timeMs = Date.parse(tick.time);
      collection.observe(timeMs, tick.health, tick.frame);
      return watch.observeInTurns(timeMs, tick.frame);
    });
    app.addHook('onClose', async () => stop());
  },
  { name: 'alarms', dependencies: ['fabric', 'events', 'store'] },
);
