import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { Alarms } from '../../events/alarms.ts';
import { CollectionWatch } from '../../events/collection-watch.ts';
import { HealthWatch } from '../../events/health-watch.ts';
import { SaturatedCounters } from '../../events/saturation-reasons.ts';
import type { AppSource } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Grouped alarms with a lifecycle, fed by the health watch (events/alarms.ts); null without events. */
    readonly alarms: Alarms | null;
  }
}

/** Decorates `alarms`, and feeds thresholds crossed, collection gaps and stalls of each tick to the events and alarms. */
export const alarmsPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    const events = app.events;
    const alarms = events ? new Alarms(events) : null;
    app.decorate('alarms', alarms);
    if (!events || !alarms) return;
    const collection = new CollectionWatch(events);
    const urls = source.build?.config.collectorUrls ?? [];
    const saturated = urls.length > 0 ? new SaturatedCounters(urls) : undefined;
    const watch = new HealthWatch(events, app.fabric.linkIndex, undefined, alarms, collection, saturated);
    const stop = app.sampler.onTick((tick) => {
      const timeMs = Date.parse(tick.time);
      collection.observe(timeMs, tick.health, tick.frame);
      // Read only while an alarm has members of unknown value; the next tick takes what it found.
      if (saturated && watch.unknownMembers() > 0) saturated.refresh().catch(() => undefined);
      return watch.observeInTurns(timeMs, tick.frame);
    });
    app.addHook('onClose', async () => stop());
  },
  { name: 'alarms', dependencies: ['fabric', 'events', 'store'] },
);
