import { type ExpositionSample, parseLine } from '../../src/store/exposition.ts';
import { ExpositionScanner, labelsOfBlock } from '../../src/store/exposition-stream.ts';

/** Every sample of an exposition given in chunks, as `parseExposition` reads the whole text. */
export function parseExpositionChunks(
  chunks: Iterable<Uint8Array>,
  wanted?: ReadonlySet<string>,
): ExpositionSample[] {
  const samples: ExpositionSample[] = [];
  const labels: Record<string, string>[] = [];
  const scanner: ExpositionScanner = new ExpositionScanner(
    wanted ? [...wanted] : null,
    (metric, block, value, line) => {
      for (let b = labels.length; b <= block; b++)
        labels.push(labelsOfBlock(scanner.blocks.keys[b] as string, line));
      samples.push({ name: scanner.nameOf(metric), labels: { ...labels[block] }, value });
    },
  );
  for (const chunk of chunks) scanner.push(chunk);
  scanner.end();
  return samples;
}

/** Every sample of a whole exposition text, line by line (parseLine): what the streaming scanner must agree with. */
export function parseExposition(text: string, wanted?: ReadonlySet<string>): ExpositionSample[] {
  const samples: ExpositionSample[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const sample = parseLine(lines[n] as string, n + 1, wanted);
    if (sample) samples.push(sample);
  }
  return samples;
}
