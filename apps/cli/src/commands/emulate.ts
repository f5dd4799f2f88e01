import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  emulatorForScenario,
  type PhaseResult,
  parseScenarioFile,
  runScenario,
  startSysfsWriter,
} from '@fabscope/emulator';
import { EMULATE_USAGE } from '../usage.js';

const gb = (bytesPerSecond: number) => `${(bytesPerSecond / 1e9).toFixed(2)} GB/s`;
const gbit = (bytesPerSecond: number) => `${((bytesPerSecond * 8) / 1e9).toFixed(1)} Gb/s`;

function formatPhase(p: PhaseResult): string {
  const isl = p.maxIslUtilization === null ? '' : `  busiest ISL ${(p.maxIslUtilization * 100).toFixed(0)} %`;
  const lines = [
    `${p.name.padEnd(34)} ${`${p.durationS.toFixed(1)} s`.padStart(7)}  hosts send ${gb(p.hostTransmitBytesPerSecond)}${isl}`,
  ];
  for (const h of p.hosts) {
    lines.push(
      `  ${h.name.padEnd(32)} in ${gbit(h.receiveBytesPerSecond)}, out ${gbit(h.transmitBytesPerSecond)}, CPU ${(h.cpuUtilization * 100).toFixed(1)} %`,
    );
  }
  return lines.join('\n');
}

export async function emulateCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      speed: { type: 'string', default: '1' },
      json: { type: 'boolean', default: false },
      sysfs: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new Error(`fabscope emulate needs one scenario file\n${EMULATE_USAGE}`);
  const speed = Number(values.speed);
  if (!(speed >= 0) || !Number.isFinite(speed))
    throw new Error(`--speed must be a number ≥ 0, got "${values.speed}"`);
  const file = parseScenarioFile(readFileSync(positionals[0] as string, 'utf8'));
  const emulator = emulatorForScenario(file, Date.now());
  const sysfsDir = values.sysfs ?? process.env.FABSCOPE_EMULATOR_SYSFS;
  const writer = sysfsDir
    ? startSysfsWriter(emulator, sysfsDir, { intervalMs: speed === 1 ? 1000 : 100 })
    : null;
  if (!values.json) {
    process.stdout.write(
      `${file.name}: fabric ${file.fabric}, seed ${file.seed ?? 1}, speed ${speed === 0 ? 'max' : `${speed}×`}\n`,
    );
  }
  try {
    const result = await runScenario(file, {
      speed,
      emulator,
      onPhase: (p) => {
        if (!values.json) process.stdout.write(`${formatPhase(p)}\n`);
      },
    });
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    writer?.writeNow();
    writer?.stop();
  }
}
