import { parseArgs } from 'node:util';
import { ConfigError, configFromEnv } from '@fabscope/api';
import { scenarios } from '@fabscope/topology';
import { analyzeCommand } from './commands/analyze.ts';
import { COLLECT_USAGE, collect } from './commands/collect.ts';
import { EMULATE_USAGE, emulateCommand } from './commands/emulate.ts';
import { EMULATOR_USAGE, emulatorCommand } from './commands/emulator.ts';
import { PARSE_USAGE, parse } from './commands/parse.ts';
import { routeCommand } from './commands/route.ts';
import { SERVE_USAGE, serveCommand } from './commands/serve.ts';
import { stopOnSignal } from './commands/shared.ts';
import { TOP_USAGE, topCommand } from './commands/top.ts';
import { topologyCommand } from './commands/topology.ts';
import { startDemo } from './demo.ts';
import { MissingToolError } from './prometheus.ts';

const USAGE = `usage: fabscope <command> [options]

commands:
  demo [--prometheus]   emulated fabric → collector → store → API and dashboard
                        (HOST, PORT, FABSCOPE_SCENARIO, PROMETHEUS_URL, … see README)
  scenarios             list the built-in fabric scenarios
  ${EMULATOR_USAGE.replaceAll('\n', '\n  ')}
  ${EMULATE_USAGE.replaceAll('\n', '\n  ')}
  ${SERVE_USAGE.replaceAll('\n', '\n  ')}
  ${COLLECT_USAGE.replace(/^usage:\n/, '').replaceAll('\n', '\n  ')}
  ${PARSE_USAGE.replace(/^usage: fabscope /, '').replaceAll('\n', '\n  ')}
  topology generate --scenario NAME [--routing minhop|fattree] [--json]
                        build a fabric and its forwarding tables: {hosts, switches, …, routingMs}
  topology parse FILE [--format F] [--json]
                        read an ibnetdiscover / ibsim / ibnetdiscover -p / opareport XML dump
  route (--scenario NAME | --topology FILE) --from A --to B [--ibroute FILE] [--json]
                        static route as opareport -o route prints it, with a latency estimate
  analyze (--scenario NAME | --topology FILE) --pattern P [--json]
                        flows sharing links under static routing (P: pairs:A-B,C-D, shift:K,
                        permutation[:SEED], all-to-all, incast:HOST, bisection)
  ${TOP_USAGE}
  help                  this text
`;

function optionalPort(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`${name} must be a port number, got "${value}"`);
  return n;
}

async function demo(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { prometheus: { type: 'boolean', default: false } } });
  const config = configFromEnv();
  const collectorPort = optionalPort('FABSCOPE_COLLECTOR_PORT');
  const prometheusPort = optionalPort('FABSCOPE_PROMETHEUS_PORT');
  const running = await startDemo({
    config,
    prometheus: values.prometheus,
    ...(collectorPort === undefined ? {} : { collectorPort }),
    ...(prometheusPort === undefined ? {} : { prometheusPort }),
  });
  const shown = running.apiUrl.replace('0.0.0.0', '127.0.0.1');
  process.stdout.write(
    [
      `fabscope demo: fabric ${running.fabricName}, store ${running.api.store.kind}`,
      `  dashboard   ${shown}/`,
      `  API         ${shown}/api/v1/ (OpenAPI: ${shown}/api/v1/openapi.json)`,
      `  collector   ${running.collectorUrl}`,
      `  emulator    ${running.emulatorUrl}`,
      ...(running.prometheusUrl ? [`  prometheus  ${running.prometheusUrl}`] : []),
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
  stopOnSignal(() => running.stop());
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'demo':
      return demo(rest);
    case 'emulator':
      return emulatorCommand(rest);
    case 'emulate':
      return emulateCommand(rest);
    case 'serve':
      return serveCommand(rest);
    case 'collect': {
      const stop = await collect(rest, { stdout: (text) => process.stdout.write(text) });
      if (stop) stopOnSignal(stop);
      return;
    }
    case 'parse':
      return parse(rest, { stdout: (text) => process.stdout.write(text) });
    case 'topology':
      return topologyCommand(rest);
    case 'route':
      return routeCommand(rest);
    case 'analyze':
      return analyzeCommand(rest);
    case 'top':
      return topCommand(rest);
    case 'scenarios':
      for (const s of scenarios) process.stdout.write(`${s.name.padEnd(20)} ${s.description}\n`);
      return;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return;
    default:
      process.stderr.write(`fabscope: unknown command "${command}"\n${USAGE}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof MissingToolError) {
    process.stderr.write(`fabscope: ${error.message}\n`);
  } else {
    process.stderr.write(
      `fabscope: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
