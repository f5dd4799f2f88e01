import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { type FabricHistoryDir, historyDirFor } from '../../store/history-file/fabric-dir.ts';
import type { AppSource } from '../app-source.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The fabric's history directory this process holds (docs/history.md); null: memory only. */
    readonly historyDir: FabricHistoryDir | null;
  }
}

/** Decorates `historyDir`: the embedded store's directory, held until the app closes; none with a TSDB. */
export const dataDirPlugin = fastifyPlugin(
  async (app: FastifyInstance, source: AppSource) => {
    const config = source.build?.config;
    const dir =
      !config || config.prometheusUrl
        ? null
        : historyDirFor(config.dataDir ?? config.defaultDataDir, app.fabric.linkIndex);
    app.decorate('historyDir', dir);
    if (dir) app.addHook('onClose', async () => dir.release());
  },
  { name: 'data-dir', dependencies: ['fabric'] },
);
