import { summarizeSnapshot } from '../../lib/tierLoad.ts';
import { compactSnapshotOf } from '../stream/stream.ts';
import type { CompactSnapshot } from '../types.ts';
import type { AnswerBody, CompactDecode } from './exchange.ts';

/** The text of the newest compact message decoded per URL (the last `limit` URLs), with its number. */
export class DecodedTexts {
  private readonly texts = new Map<string, { decoded: number; text: string }>();
  private next = 1;

  constructor(private readonly limit = 2) {}

  /** Whether `text` is the one the answer numbered `held` to `url` was decoded from. */
  same(url: string, held: number | undefined, text: string): boolean {
    const kept = this.texts.get(url);
    return held !== undefined && kept !== undefined && kept.decoded === held && kept.text === text;
  }

  /** Keeps `text` as the newest decoded for `url`: the number of its answer. */
  remember(url: string, text: string): number {
    const decoded = this.next++;
    this.texts.delete(url);
    this.texts.set(url, { decoded, text });
    for (const oldest of this.texts.keys()) {
      if (this.texts.size <= this.limit) break;
      this.texts.delete(oldest);
    }
    return decoded;
  }
}

/** A compact message read as `decode` says (compactSnapshotOf's checks; throws as it does). */
export function decodeCompact(value: unknown, decode: CompactDecode): CompactSnapshot {
  const snapshot = compactSnapshotOf(value, decode.channels);
  if (decode.tiers) snapshot.tiers = summarizeSnapshot(decode.tiers, snapshot);
  return snapshot;
}

/** A successful answer holding a CompactSnapshot decoded, or `invalid` with why not. */
export function decodedBody(body: AnswerBody, decode: CompactDecode): AnswerBody {
  if (body.kind !== 'json') return body;
  try {
    return { kind: 'json', value: decodeCompact(body.value, decode) };
  } catch (error) {
    return { kind: 'invalid', message: error instanceof Error ? error.message : String(error) };
  }
}

/** The buffers a decoded body hands over (its three per-channel arrays), none for any other. */
export function decodedTransfers(body: AnswerBody): ArrayBuffer[] {
  if (body.kind !== 'json') return [];
  const v = body.value as Partial<CompactSnapshot> | null;
  if (
    !(v?.utilization instanceof Float64Array) ||
    !(v.bytesPerSecond instanceof Float64Array) ||
    !(v.waitFraction instanceof Float64Array)
  )
    return [];
  return [v.utilization.buffer, v.bytesPerSecond.buffer, v.waitFraction.buffer] as ArrayBuffer[];
}
