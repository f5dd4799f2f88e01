import type { Fabric, ForwardingTables } from '@fabscope/topology';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type ApiConfig, checkLiveSource } from './config.ts';
import type { Sampler } from './sampler.ts';
import type { MetricsStore } from './store/types.ts';
import type { FabricTools } from './topology-live/subnets.ts';

export interface RunningApi {
  app: FastifyInstance;
  url: string;
  store: MetricsStore;
  sampler: Sampler;
  close(): Promise<void>;
}

/** Builds the app from a config (its plugins build, start and close its parts), and listens. */
export async function startApi(
  config: ApiConfig,
  fabric: Fabric,
  options: {
    tables?: ForwardingTables;
    webRoot?: string;
    logStream?: NodeJS.WritableStream;
    tools?: FabricTools;
  } = {},
): Promise<RunningApi> {
  checkLiveSource(config);
  const app = await buildApp({
    build: { config, fabric, tables: options.tables, tools: options.tools },
    listenHost: config.host,
    apiToken: config.apiToken,
    allowedHosts: config.allowedHosts,
    requestTimeoutMs: config.requestTimeoutMs,
    webRoot: options.webRoot,
    logger: { level: config.logLevel ?? 'warn', stream: options.logStream },
  });
  let url: string;
  try {
    url = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  return { app, url, store: app.store, sampler: app.sampler, close: () => app.close() };
}
