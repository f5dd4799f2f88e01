// The server side of load.bench.ts, in processes of their own so memory and event loops are their
// own, on 127.0.0.1 only, as a site runs them: `pipeline SCENARIO` runs the emulator and the fabric
// collector and prints {emulatorUrl, collectorUrl, hosts}; `api SCENARIO EMULATOR COLLECTOR` runs
// the API with its embedded store scraping that collector and prints {apiUrl}. Stop with SIGTERM.
import { createFabricRegistry, emulatorSource, startMetricsServer } from '@fabscope/collectors';
import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { buildForwardingTables, buildScenario } from '@fabscope/topology';
import { configFromEnv } from '../src/config.ts';
import { startApi } from '../src/server.ts';

const [role, scenario = 'fat-tree-1152', emulatorUrl, collectorUrl] = process.argv.slice(2);
const fabric = buildScenario(scenario);
const tables = buildForwardingTables(fabric, 'auto');
const stops: (() => Promise<void>)[] = [];

if (role === 'pipeline') {
  const emulator = createEmulator({ fabric, tables, seed: 1, startTimeMs: Date.now() });
  const emulatorServer = await startEmulatorServer(emulator, {
    host: '127.0.0.1',
    port: 0,
    fromDateNow: true,
  });
  const registry = createFabricRegistry({ source: emulatorSource(emulatorServer.url) });
  const collector = await startMetricsServer(registry.answer, { host: '127.0.0.1', port: 0 });
  stops.push(
    () => collector.close(),
    () => emulatorServer.close(),
  );
  const hosts = fabric.nodes.filter((n) => n.type === 'host').map((n) => n.name);
  process.stdout.write(
    `${JSON.stringify({ emulatorUrl: emulatorServer.url, collectorUrl: collector.url, hosts })}\n`,
  );
} else if (role === 'api' && emulatorUrl && collectorUrl) {
  const config = {
    ...configFromEnv({}),
    host: '127.0.0.1',
    port: 0,
    emulatorUrl,
    collectorUrls: [collectorUrl],
  };
  const api = await startApi(config, fabric, { tables });
  stops.push(() => api.close());
  process.stdout.write(`${JSON.stringify({ apiUrl: api.url })}\n`);
} else {
  throw new Error('usage: load-server.ts pipeline SCENARIO | api SCENARIO EMULATOR_URL COLLECTOR_URL');
}
process.on('SIGTERM', async () => {
  for (const stop of stops) await stop();
  process.exit(0);
});
