import { parseArgs } from 'node:util';
import { analyzeContention, parsePattern } from '@fabscope/topology';
import { FABRIC_OPTIONS, loadFabric, UsageError, withInputErrors } from './topology.ts';

/** `fabscope analyze (--scenario NAME | --topology FILE) --pattern P [--json]`. */
export function analyzeCommand(args: string[]): Promise<void> {
  return withInputErrors(() => {
    const { values } = parseArgs({
      args,
      options: { ...FABRIC_OPTIONS, pattern: { type: 'string' }, top: { type: 'string', default: '10' } },
    });
    if (!values.pattern) {
      throw new UsageError(
        'usage: fabscope analyze (--scenario NAME | --topology FILE) --pattern P [--routing …] [--json]\n' +
          '  P: pairs:A-B,C-D | shift:K | permutation[:SEED] | all-to-all | incast:HOST | bisection',
      );
    }
    const top = Number(values.top);
    if (!Number.isInteger(top) || top < 0) throw new UsageError(`--top must be a count, got "${values.top}"`);
    const { fabric, tables } = loadFabric(values);
    const pattern = parsePattern(values.pattern, fabric);
    const started = performance.now();
    const result = analyzeContention(fabric, tables, pattern);
    const analysisMs = Math.round((performance.now() - started) * 10) / 10;
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ pattern: values.pattern, analysisMs, ...result })}\n`);
      return;
    }
    const out = [
      `pattern ${values.pattern} on ${fabric.name} (${result.engine} routing): ${result.routedCount} of ${result.flowCount} flows routed`,
      `maxLinkLoad ${result.maxLinkLoad} (ISLs ${result.maxIslLoad}); aggregate ${result.aggregateGbps} Gb/s; slowest flow ${result.minFlowGbps} Gb/s`,
      `busiest link directions:`,
      ...result.links
        .slice(0, top)
        .map(
          (l) => `  ${String(l.flows).padStart(5)} flows  ${l.usedGbps}/${l.capacityGbps} Gb/s  ${l.link}`,
        ),
      `shared ISL directions: ${result.collisions.length}`,
      ...result.collisions.slice(0, top).map(
        (c) =>
          `  ${c.link}: ${c.pairs
            .slice(0, 6)
            .map(([a, b]) => `${a}→${b}`)
            .join(', ')}${c.pairs.length > 6 ? ', …' : ''}`,
      ),
      ...result.unroutable.slice(0, top).map((u) => `unroutable ${u.from}→${u.to}: ${u.reason}`),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  });
}
