// What several workspaces' tests share. Imported by tests only (never by a workspace's src/).
import fc from 'fast-check';

/** Control characters and U+FFFD left in a text: an error message must show none of them. */
export function unprintable(text: string): number[] {
  return [...text]
    .map((ch) => ch.codePointAt(0) as number)
    .filter((c) => c < 0x20 || (c >= 0x7f && c < 0xa0) || c === 0xfffd);
}

/** Input for a parser of `real`'s format: noise, its lines shuffled with noise, cut short, with bytes
 * inserted or a run of lines removed. */
export function damagedInputs(real: string): fc.Arbitrary<string> {
  const lines = real.split('\n');
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc
      .array(fc.oneof(fc.constantFrom(...lines), fc.string({ maxLength: 40 })), { maxLength: 40 })
      .map((l) => l.join('\n')),
    fc.nat(real.length).map((cut) => real.slice(0, cut)),
    fc
      .tuple(fc.nat(real.length), fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }))
      .map(([at, noise]) => real.slice(0, at) + noise + real.slice(at)),
    fc
      .tuple(fc.nat(lines.length), fc.nat(lines.length))
      .map(([a, b]) => lines.filter((_, i) => i < Math.min(a, b) || i > Math.max(a, b)).join('\n')),
  );
}

export { benchReporter, median } from './bench.ts';
export { freePort, NODE_EXPORTER, startNodeExporter } from './node-exporter.ts';
export {
  type RunningSnmpExporter,
  SNMP_EXPORTER,
  SNMP_EXPORTER_CONFIG,
  startSnmpExporter,
} from './snmp-exporter.ts';
export { parseSnmprec, type SnmprecAgents, serveSnmprec } from './snmprec-agent.ts';
export { type SnmprecAgentProcess, startSnmprecAgents } from './snmprec-agent-process.ts';
export { freeUdpPort, type Snmpsim, snmpbulkwalk, startSnmpsim } from './snmpsim.ts';

/** Undefined when `run` returns, the error when it throws a `kind`; any other is rethrown (a parser's
 * TypeError on bad input is a bug, not an answer). */
export function thrownBy<E extends Error>(
  run: () => unknown,
  kind: new (...args: never[]) => E,
): E | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
}
export { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
export { type RunningDemo, startDemo } from './demo-process.ts';
export { formatIbnetdiscover } from './ibnetdiscover-writer.ts';
export { type HostPair, startTrafficPairs } from './traffic.ts';

/**
 * Runs every stop, last started first, even when one fails, then throws the first failure: a
 * failing stop must not leave the servers started before it running.
 */
export async function stopAll(stops: (() => unknown)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const stop of [...stops].reverse()) {
    try {
      await stop();
    } catch (error) {
      failures.push(error);
    }
  }
  stops.length = 0;
  if (failures.length > 0) throw failures[0];
}
