import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { Alarms } from '../../events/alarms.ts';
import { HealthWatch } from '../../events/health-watch.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Grouped alarms with a lifecycle, fed by the health watch (events/alarms.ts); null without events. */
    readonly alarms: Alarms | null;
  }
}

/** Decorates `alarms`, and feeds thresholds crossed and collection gaps of each tick to the events and alarms. */
export const alarmsPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    const events = app.events;
    const alarms = events ? new Alarms(events) : null;
    app.decorate('alarms', alarms);
    if (!events || !alarms) return;
    const watch = new HealthWatch(events, app.fabric.linkIndex, undefined, alarms);
    const stop = app.sampler.onTick((tick) => watch.observeInTurns(Date.parse(tick.time), tick.frame));
    app.addHook('onClose', async () => stop());
  },
  { name: 'alarms', dependencies: ['fabric', 'events', 'store'] },
);
