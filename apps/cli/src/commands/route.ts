import { parseArgs } from 'node:util';
import { describeRoute, findNode, formatOpareportRoute, routeBetween } from '@fabscope/topology';
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
    const from = findNode(fabric, values.from);
    const to = findNode(fabric, values.to);
    const report = describeRoute(fabric, routeBetween(fabric, tables, from.name, to.name));
    if (values.json) process.stdout.write(`${JSON.stringify({ engine: tables.engine, ...report })}\n`);
    else process.stdout.write(formatOpareportRoute(fabric, report));
  });
}
