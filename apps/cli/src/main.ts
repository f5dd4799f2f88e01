import { USAGE } from './usage.js';

/** Loaded when the command runs, so `topology parse` loads neither Fastify nor the emulator. */
const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  demo: async (args) => (await import('./commands/demo.ts')).demoCommand(args),
  emulator: async (args) => (await import('./commands/emulator.ts')).emulatorCommand(args),
  emulate: async (args) => (await import('./commands/emulate.ts')).emulateCommand(args),
  serve: async (args) => (await import('./commands/serve.ts')).serveCommand(args),
  collect: async (args) => {
    const [{ collect }, { stopOnSignal }] = await Promise.all([
      import('./commands/collect.ts'),
      import('./commands/shared.ts'),
    ]);
    const stop = await collect(args, { stdout: (text) => process.stdout.write(text) });
    if (stop) stopOnSignal(stop);
  },
  parse: async (args) =>
    (await import('./commands/parse.ts')).parse(args, { stdout: (text) => process.stdout.write(text) }),
  topology: async (args) => (await import('./commands/topology.ts')).topologyCommand(args),
  route: async (args) => (await import('./commands/route.ts')).routeCommand(args),
  analyze: async (args) => (await import('./commands/analyze.ts')).analyzeCommand(args),
  top: async (args) => (await import('./commands/top.ts')).topCommand(args),
  why: async (args) => (await import('./commands/why.ts')).whyCommand(args),
  // Hidden: the InfiniBand port reader's child process, started by the collector.
  '__ib-port-reader': async () => (await import('@fabscope/collectors')).runIbPortReaderChild(),
  // Hidden: the demo's emulator and collector(s) in a process of their own (pipeline-process.ts).
  __pipeline: async ([role, options]) =>
    (await import('./demo/pipeline-process.ts')).runPipelineChild(role, options),
  scenarios: async () => {
    const { scenarios } = await import('@fabscope/topology');
    for (const s of scenarios) process.stdout.write(`${s.name.padEnd(20)} ${s.description}\n`);
  },
};

/** User-facing errors, told by name so classifying them loads nothing. */
const USER_ERRORS = new Set(['ConfigError', 'MissingToolError']);

// Output piped into `head` and the like: a closed pipe ends the command quietly, as for other tools.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) {
    process.stderr.write(`fabscope: unknown command "${command}"\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  await run(rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof Error && USER_ERRORS.has(error.name)) {
    process.stderr.write(`fabscope: ${error.message}\n`);
  } else if (
    error instanceof Error &&
    /^ERR_PARSE_ARGS_/.test(String((error as NodeJS.ErrnoException).code))
  ) {
    // node:util parseArgs' refusals (an unknown option, a missing value): the user's, not a crash.
    process.stderr.write(
      `fabscope: ${error.message}\n(fabscope help lists the commands and their options)\n`,
    );
    process.exit(2);
  } else {
    process.stderr.write(
      `fabscope: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
