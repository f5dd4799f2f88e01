import { parseArgs } from 'node:util';
import { createEmulator, startEmulatorServer, startSysfsWriter } from '@fabscope/emulator';
import { type RoutingEngineName, routingFor } from '@fabscope/topology';
import { parseListen, stopOnSignal } from './shared.ts';
import { fabricFromConfig } from './topology.ts';

export const EMULATOR_OPTIONS = {
  scenario: { type: 'string' },
  topology: { type: 'string' },
  listen: { type: 'string', default: '127.0.0.1:7070' },
  seed: { type: 'string', default: '1' },
  sysfs: { type: 'string' },
} as const;

export async function emulatorCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: EMULATOR_OPTIONS, strict: true });
  const { host, port } = parseListen(values.listen);
  const topologyPath =
    values.topology ?? (values.scenario ? undefined : process.env.FABSCOPE_TOPOLOGY || undefined);
  const scenario = values.scenario ?? process.env.FABSCOPE_SCENARIO ?? 'ar-demo';
  const { fabric, tables, engine } = fabricFromConfig({
    scenario,
    topologyPath,
    routing: process.env.FABSCOPE_ROUTING as RoutingEngineName | 'auto' | undefined,
  });
  const routing = routingFor(engine);
  const emulator = createEmulator({
    fabric,
    tables,
    routing,
    seed: Number(values.seed),
    startTimeMs: Date.now(),
  });
  // Beyond loopback, changes need the same token as the API's (FABSCOPE_API_TOKEN).
  const server = await startEmulatorServer(emulator, {
    host,
    port,
    token: process.env.FABSCOPE_API_TOKEN || undefined,
  });
  const sysfsDir = values.sysfs ?? process.env.FABSCOPE_EMULATOR_SYSFS;
  const sysfs = sysfsDir ? startSysfsWriter(emulator, sysfsDir) : null;
  process.stdout.write(
    `fabscope emulator: fabric ${fabric.name} at ${server.url}${sysfsDir ? `, sysfs trees in ${sysfsDir}` : ''}\n`,
  );
  stopOnSignal(async () => {
    sysfs?.stop();
    await server.close();
  });
}
