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

/** The fabric an emulator runs: the settings the API loads it with, and its seed. */
export type EmulatorSettings = Parameters<typeof fabricFromConfig>[0] & {
  seed: number;
  /** Keep live per-host sysfs/procfs trees here. */
  sysfsDir?: string | undefined;
};

/** The emulator of `fabscope emulator` and of the demo: its fabric served over HTTP, with sysfs trees when asked. */
export async function serveEmulator(
  settings: EmulatorSettings,
  listen: { host: string; port: number; tickMs?: number; token?: string | undefined },
) {
  const { fabric, tables, engine } = fabricFromConfig(settings);
  // The fabric manager's sweeps use the engine that built the tables.
  const emulator = createEmulator({
    fabric,
    tables,
    routing: routingFor(engine),
    seed: settings.seed,
    startTimeMs: Date.now(),
  });
  const server = await startEmulatorServer(emulator, { ...listen, fromDateNow: true });
  const sysfs = settings.sysfsDir ? startSysfsWriter(emulator, settings.sysfsDir) : null;
  const stop = async () => {
    sysfs?.stop();
    await server.close();
  };
  return { fabric, url: server.url, stop };
}

export async function emulatorCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: EMULATOR_OPTIONS, strict: true });
  const { host, port } = parseListen(values.listen);
  const sysfsDir = values.sysfs ?? process.env.FABSCOPE_EMULATOR_SYSFS;
  const emulator = await serveEmulator(
    {
      scenario: values.scenario ?? process.env.FABSCOPE_SCENARIO ?? 'ar-demo',
      topologyPath:
        values.topology ?? (values.scenario ? undefined : process.env.FABSCOPE_TOPOLOGY || undefined),
      routing: process.env.FABSCOPE_ROUTING as RoutingEngineName | 'auto' | undefined,
      seed: Number(values.seed),
      sysfsDir,
    },
    // Beyond loopback, changes need the same token as the API's (FABSCOPE_API_TOKEN).
    { host, port, token: process.env.FABSCOPE_API_TOKEN || undefined },
  );
  process.stdout.write(
    `fabscope emulator: fabric ${emulator.fabric.name} at ${emulator.url}${sysfsDir ? `, sysfs trees in ${sysfsDir}` : ''}\n`,
  );
  stopOnSignal(emulator.stop);
}
