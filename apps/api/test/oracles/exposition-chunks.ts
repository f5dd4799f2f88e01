import type { ExpositionSample } from '../../src/store/exposition.ts';
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
