import type { Emulator } from '../emulator.ts';
import { HttpError } from './http-error.ts';

/**
 * `GET /v1/ethernet`: every Ethernet port's PFC pause (rx/tx), ECN marks, CNPs and discards as unsigned 64-bit
 * decimal strings (as `/v1/ports` writes counters), and where lossless Ethernet congests now.
 */
export function ethernetAnswer(emulator: Emulator, _body: unknown, query: URLSearchParams): unknown {
  const unknown = [...query.keys()][0];
  if (unknown !== undefined)
    throw new HttpError(400, `unknown parameter "${unknown}"; /v1/ethernet takes none`);
  const ports = emulator.ethernetPortCounters().map((port) => {
    const entry: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(port))
      entry[key] = typeof value === 'bigint' ? String(value) : value;
    return entry;
  });
  return { timeMs: emulator.nowMs(), ports, congestion: emulator.losslessCongestion() };
}
