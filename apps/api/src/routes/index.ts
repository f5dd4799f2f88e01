import type { FastifyInstance } from 'fastify';
import { adaptiveRoutingRoutes } from './adaptive-routing/index.ts';
import { alarmRoutes } from './alarms/index.ts';
import { analysisRoutes } from './analysis/index.ts';
import { eventRoutes } from './events/index.ts';
import { faultRoutes } from './faults/index.ts';
import { findRoutes } from './find/index.ts';
import { healthRoutes } from './health/index.ts';
import { instantRoutes } from './instant/index.ts';
import { jobRoutes } from './jobs/index.ts';
import { linksExportRoutes } from './links/export.ts';
import { linkFlowsRoutes } from './links/flows.ts';
import { linkHistoryRoutes } from './links/history.ts';
import { linksRoutes } from './links/index.ts';
import { portRoutes } from './port/index.ts';
import { routeRoutes } from './route/index.ts';
import { staticLoadRoutes } from './routes/static-load.ts';
import { streamRoutes } from './stream/index.ts';
import { summaryHistoryRoutes } from './summary/history.ts';
import { summaryRoutes } from './summary/index.ts';
import { topologyRoutes } from './topology/index.ts';
import { topologyLiveRoutes } from './topology/live.ts';
import { trafficRoutes } from './traffic/index.ts';

/** Every route, under `/api/v1`: each folder is the URL it answers; routes take what they work on from plugins/app/ decorators. */
export async function apiRoutes(api: FastifyInstance): Promise<void> {
  // In the order of the OpenAPI document's paths.
  for (const routes of [
    healthRoutes,
    topologyRoutes,
    summaryRoutes,
    routeRoutes,
    portRoutes,
    staticLoadRoutes,
    linksRoutes,
    analysisRoutes,
    adaptiveRoutingRoutes,
    trafficRoutes,
    faultRoutes,
    streamRoutes,
    summaryHistoryRoutes,
    linkHistoryRoutes,
    instantRoutes,
    eventRoutes,
    jobRoutes,
    linkFlowsRoutes,
    linksExportRoutes,
    topologyLiveRoutes,
    alarmRoutes,
    findRoutes,
  ]) {
    await api.register(routes);
  }
  api.get('/openapi.json', { schema: { hide: true } }, async () => api.swagger());
}
