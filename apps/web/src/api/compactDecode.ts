import { summarizeSnapshot, type TierGroups } from '../lib/tierSummary.ts';
import type { AnswerBody } from './exchange.ts';
import { compactSnapshotOf } from './stream.ts';
import type { CompactSnapshot } from './types.ts';

/**
 * How a compact message answered by a GET (a past instant, `GET /instant?view=compact`) is to be
 * read: checked against the drawn topology's `channels`, and with `tiers` (a fabric shown as
 * per-tier aggregates) given its tier summary — as the stream's worker reads the live messages
 * (streamEvents.reportOf). Done where the answer is parsed: in the exchange worker, whose
 * Float64Arrays are transferred to the page, not the 3.3 MB of JSON arrays at fat-tree-27648.
 */
export interface CompactDecode {
  channels?: number | undefined;
  tiers?: TierGroups | undefined;
  /**
   * The number of the decoded answer to this URL the page holds (ExchangeAnswer.decoded): when the
   * text read again is the one that answer was made of, the answer is `unchanged` — no arrays
   * made, moved or drawn again (a recent past instant is read again every 10 s, mostly the same).
   */
  held?: number | undefined;
}

/**
 * Where the answers are parsed: the text of the newest compact message decoded per URL (the last
 * `limit` URLs), with the number its answer was given.
 */
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

/**
 * A successful answer's body decoded (`json` holding a CompactSnapshot), or `invalid` with why not
 * (the message compactSnapshotOf gave). Any other body is left as it is.
 */
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
