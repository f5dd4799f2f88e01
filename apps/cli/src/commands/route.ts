import { parseArgs } from 'node:util';
import { describeRoute, formatOpareportRoute, nodesNamed, railPairs, routeBetween } from '@fabscope/topology';
import { FABRIC_OPTIONS, loadFabric, UsageError, withInputErrors } from './topology.ts';

/** `fabscope route (--scenario NAME | --topology FILE) --from A --to B [--json]`: the static route and its latency. */
export function routeCommand(args: string[]): Promise<void> {
  return withInputErrors(() => {
    const { values } = parseArgs({
      args,
      options: { ...FABRIC_OPTIONS, from: { type: 'string' }, to: { type: 'string' } },
    });
    if (!values.from || !values.to) {
      throw new UsageError(
        'usage: fabscope route (--scenario NAME | --topology FILE) --from A --to B [--routing …] [--ibroute FILE] [--json]',
      );
    }
    const { fabric, tables } = loadFabric(values);
    // A host of several adapters means its rails: the route is the first pair's (the same device paired).
    const fromNodes = nodesNamed(fabric, values.from);
    const toNodes = nodesNamed(fabric, values.to);
    const pairs = railPairs(fabric, fromNodes, toNodes).filter(([a, b]) => a !== b);
    const [from, to] = pairs[0] ?? [fromNodes[0], toNodes[0]];
    const report = describeRoute(fabric, routeBetween(fabric, tables, from?.name ?? '', to?.name ?? ''));
    const rails =
      fromNodes.length > 1 || toNodes.length > 1 ? pairs.map(([a, b]) => `${a.name}->${b.name}`) : undefined;
    if (values.json) {
      const rail = rails && { from: values.from, to: values.to, rails };
      process.stdout.write(
        `${JSON.stringify({ engine: tables.engine, ...report, ...(rail ? { rail } : {}) })}\n`,
      );
    } else {
      if (rails) process.stdout.write(`Rail ${rails[0]} (of ${rails.length}: ${rails.join(', ')})\n`);
      process.stdout.write(formatOpareportRoute(fabric, report));
    }
  });
}
