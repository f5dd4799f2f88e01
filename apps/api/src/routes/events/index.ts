import { ErrorReply, EventsQuery, EventsSchema } from '@fabscope/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EventSeverity, FabricEvent } from '../../events/event-log.ts';
import { explainLinkStates } from '../../events/link-state-reasons.ts';
import { classifyResets, EXPLAINED_FOR_MS } from '../../events/unexpected-clear.ts';
import { parseTime, TimeParamError } from '../../lib/time-params.ts';
import type { MetricsStore } from '../../store/types.ts';

const ALERT_SEVERITIES: ReadonlySet<string> = new Set<EventSeverity>(['critical', 'error', 'warning']);

/** With Prometheus, the alerts firing now as events at the time they started; none if it does not answer. */
async function alertEvents(store: MetricsStore, fromMs: number, toMs: number): Promise<FabricEvent[]> {
  if (!store.firingAlerts) return [];
  try {
    const alerts = await store.firingAlerts();
    return alerts
      .filter((a) => a.activeAtMs >= fromMs && a.activeAtMs <= toMs)
      .map((a) => ({
        timeMs: a.activeAtMs,
        kind: 'alert' as const,
        subject: a.subject,
        detail: `${a.name} firing${a.summary ? `: ${a.summary}` : ''}`,
        severity: ALERT_SEVERITIES.has(a.severity) ? (a.severity as EventSeverity) : 'warning',
      }));
  } catch {
    return [];
  }
}

/** What happened between `from` and `to`: the event log's changes, and link states and resets seen in the samples. */
export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/events',
    {
      schema: {
        summary:
          'Adaptive-routing changes, traffic start/stop, faults, link state changes, counter resets (unexpected clears), PM thresholds crossed and collection gaps, each with a severity; a page at a time, newest page first',
        querystring: EventsQuery,
        response: { 200: EventsSchema, 400: ErrorReply, 410: ErrorReply },
      },
    },
    async (request) => {
      const page = await app.listings.page('events', request.query, async () => {
        const fromMs = parseTime('from', request.query.from);
        const toMs = request.query.to === undefined ? Date.now() : parseTime('to', request.query.to);
        if (toMs < fromMs) throw new TimeParamError('to is before from');
        // Faults up to a minute before `from` still explain the resets just after it.
        const logged = app.events?.list(fromMs - EXPLAINED_FOR_MS, toMs) ?? [];
        const derived = (await app.timeTravel.queries()?.events?.(fromMs, toMs)) ?? [];
        const alerts = await alertEvents(app.store, fromMs, toMs);
        const events: FabricEvent[] = explainLinkStates(
          classifyResets([...logged, ...derived, ...alerts].sort((a, b) => a.timeMs - b.timeMs)),
        ).filter((e) => e.timeMs >= fromMs);
        return { instant: new Date(toMs).toISOString(), rows: events.reverse(), extra: null };
      });
      return {
        ...page,
        events: page.rows
          .reverse()
          .map((e) => ({ ...e, time: new Date(e.timeMs).toISOString(), severity: e.severity ?? 'info' })),
      };
    },
  );
};
