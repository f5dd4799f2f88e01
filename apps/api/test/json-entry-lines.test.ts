import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jobsEntryLines } from '../src/jobs/json-entry-lines.ts';

describe('the line each entry of a jobs file starts on', () => {
  it('finds every element of the top-level "jobs" array, however the file is indented', () => {
    const entry = fc.record({
      id: fc.string(),
      nodes: fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 })),
      note: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.constantFrom(0, 2, '\t'), (jobs, indent) => {
        const text = JSON.stringify({ before: { jobs: ['not these'] }, jobs, after: [1] }, null, indent);
        const lines = text.split('\n');
        const found = jobsEntryLines(text);
        expect(found).toHaveLength(jobs.length);
        // Each named line holds the start of its entry: an object's "{", at the array's depth.
        for (const n of found) expect(lines[n - 1]?.trim().startsWith('{')).toBe(true);
        if (indent !== 0) expect(new Set(found).size).toBe(jobs.length);
      }),
      { numRuns: 50 },
    );
  });

  it('names the line of a bad entry in a written file', () => {
    const text =
      '{\n  "jobs": [\n    {"id": "a", "nodes": "n1"},\n\n    {"id": "b", "nodes": "n[1-"}\n  ]\n}\n';
    expect(jobsEntryLines(text)).toEqual([3, 5]);
    expect(jobsEntryLines('{"jobs": []}')).toEqual([]);
    expect(jobsEntryLines('not json')).toEqual([]);
  });
});
