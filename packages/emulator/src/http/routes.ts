import type { Emulator } from '../emulator.ts';
import { ethernetAnswer } from './ethernet-route.ts';
import { listFlows, startFlows } from './flow-routes.ts';
import { HttpError } from './http-error.ts';

type Handler = (emulator: Emulator, body: unknown, query: URLSearchParams) => unknown;

/** An answer already serialized as JSON, in chunks (the port counters of a big fabric). */
export class JsonChunks {
  constructor(readonly chunks: Buffer[]) {}
}

/** An answer already serialized as an Arrow IPC stream. */
export class ArrowBytes {
  constructor(readonly bytes: Uint8Array) {}
}

/** `GET /v1/ports`: JSON, or with `format=arrow` the same document as an Arrow IPC stream. */
function ports(emulator: Emulator, _body: unknown, query: URLSearchParams): unknown {
  for (const key of new Set(query.keys())) {
    if (key !== 'format') throw new HttpError(400, `unknown parameter "${key}"; /v1/ports takes format`);
  }
  const format = query.getAll('format');
  if (format.length > 1 || (format[0] !== undefined && format[0] !== 'json' && format[0] !== 'arrow'))
    throw new HttpError(400, 'format is json (default) or arrow');
  return format[0] === 'arrow'
    ? new ArrowBytes(emulator.portCountersArrow())
    : new JsonChunks(emulator.portCountersJson());
}

/** The v1 contract of docs/architecture.md: path → method → handler. */
export const routes: Record<string, Record<string, Handler>> = {
  '/v1/health': { GET: (e) => e.health() },
  '/v1/ports': { GET: ports },
  '/v1/routing': { GET: (e) => e.routingState() },
  '/v1/ethernet': { GET: ethernetAnswer },
  '/v1/adaptive-routing': {
    GET: (e) => e.getAdaptiveRouting(),
    PUT: (e, body) => e.setAdaptiveRouting(body as Parameters<Emulator['setAdaptiveRouting']>[0]),
  },
  '/v1/faults': {
    GET: (e) => ({ faults: e.listFaults() }),
    POST: (e, body) => ({ fault: e.injectFault(body), faults: e.listFaults() }),
    DELETE: (e) => {
      e.clearFaults();
      return { faults: [] };
    },
  },
  '/v1/hosts': { GET: (e) => ({ timeMs: e.nowMs(), hosts: e.hostLoads() }) },
  '/v1/jobs': { GET: (e) => ({ jobs: e.listJobs() }) },
  '/v1/flows': {
    GET: listFlows,
    POST: startFlows,
    DELETE: (e) => {
      e.stopAllFlows();
      return { flows: [] };
    },
  },
};
