import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { type EventLog, FileEventLog, MemoryEventLog } from '../../events/event-log.ts';
import type { AppSource } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Changes and incidents for `GET /events`; null: the store's own events only. */
    readonly events: EventLog | null;
  }
}

/** Decorates `events`: in FABSCOPE_EVENTS_DIR, else beside the history, else in memory. */
export const eventsPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    if (source.state) {
      app.decorate('events', source.state.events ?? null);
      return;
    }
    const dir = source.build.config.eventsDir ?? app.historyDir?.path;
    app.decorate('events', dir ? new FileEventLog(dir) : new MemoryEventLog());
  },
  { name: 'events', dependencies: ['data-dir'] },
);
