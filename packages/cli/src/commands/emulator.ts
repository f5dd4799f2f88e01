import { parseArgs } from 'node:util';
import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { parseListen, stopOnSignal } from './shared.ts';

export const EMULATOR_USAGE = `fabscope emulator [--scenario NAME] [--listen HOST:PORT] [--seed N]
  Runs the fabric emulator alone, in real time, serving its HTTP interface (docs/architecture.md).
  Defaults: --scenario $FABSCOPE_SCENARIO or ar-demo, --listen 127.0.0.1:7070, --seed 1.`;

export const EMULATOR_OPTIONS = {
  scenario: { type: 'string' },
  listen: { type: 'string', default: '127.0.0.1:7070' },
  seed: { type: 'string', default: '1' },
} as const;

export async function emulatorCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: EMULATOR_OPTIONS, strict: true });
  const { host, port } = parseListen(values.listen);
  const scenario = values.scenario ?? process.env.FABSCOPE_SCENARIO ?? 'ar-demo';
  const fabric = buildScenario(scenario);
  const emulator = createEmulator({
    fabric,
    tables: fatTreeRouting(fabric),
    seed: Number(values.seed),
    startTimeMs: Date.now(),
  });
  const server = await startEmulatorServer(emulator, { host, port });
  process.stdout.write(`fabscope emulator: scenario ${scenario} at ${server.url}\n`);
  stopOnSignal(() => server.close());
}
