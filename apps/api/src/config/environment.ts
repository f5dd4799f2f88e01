import { type Static, type TLiteral, type TSchema, type TUnion, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ConfigError } from '../errors.ts';

/** A whole number within bounds; `said` is how an error names what is expected. */
function whole(minimum: number, maximum: number, description: string, said = `${minimum}..${maximum}`) {
  return Type.Integer({ minimum, maximum, description, said });
}

function oneOf<const T extends readonly string[]>(values: T, description: string, said?: string) {
  const schema = Type.Union(
    values.map((v) => Type.Literal(v)),
    { description, said: said ?? `one of ${values.join(', ')}` },
  );
  return schema as unknown as TUnion<TLiteral<T[number]>[]>;
}

const text = (description: string) => Type.String({ description });
const withDefault = <S extends TSchema>(schema: S, value: Static<S>) => ({ ...schema, default: value }) as S;

/** Levels of FABSCOPE_LOG_LEVEL (pino's): `warn` by default, where every 5xx leaves one line. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LIVE_SOURCES = ['tsdb', 'collectors'] as const;
export const FABRIC_SOURCE_KINDS = ['emulator', 'infiniband', 'snmp'] as const;
export const ROUTINGS = ['minhop', 'fattree', 'auto'] as const;

/** Every environment variable the API reads, with its default, validated once at start (readEnvironment). */
export const ENVIRONMENT = Type.Object({
  HOST: withDefault(text('Address the API listens on'), '127.0.0.1'),
  PORT: withDefault(whole(0, 65535, 'Port the API listens on', 'a port number 0..65535'), 8080),
  FABSCOPE_SCENARIO: withDefault(text('Built-in fabric when no topology file is given'), 'ar-demo'),
  PROMETHEUS_URL: Type.Optional(text('A TSDB answering PromQL: the store, instead of the embedded one')),
  FABSCOPE_EMULATOR_URL: Type.Optional(text('The emulator driven for traffic, faults and AR')),
  FABSCOPE_COLLECTOR_URLS: Type.Optional(text('Collectors scraped, comma-separated (`/metrics` by default)')),
  FABSCOPE_API_TOKEN: Type.Optional(text('Bearer token mutating requests need beyond loopback')),
  FABSCOPE_ALLOWED_HOSTS: Type.Optional(text('Host names accepted for changes besides loopback ones')),
  FABSCOPE_REQUEST_TIMEOUT_MS: withDefault(
    whole(100, 300_000, 'Longest a client may take to send a whole request'),
    30_000,
  ),
  FABSCOPE_SAMPLE_INTERVAL_MS: Type.Optional(whole(100, 60_000, 'Sampling tick; default by fabric size')),
  FABSCOPE_PROMETHEUS_RATE_WINDOW: withDefault(
    Type.String({
      pattern: '^\\d+(ms|s|m)$',
      description: 'rate() window over raw counters',
      said: 'a PromQL duration like 5s',
    }),
    '5s',
  ),
  FABSCOPE_TSDB_MAX_CONCURRENT_QUERIES: Type.Optional(
    whole(1, 64, 'PromQL queries in flight at once (default 2)'),
  ),
  FABSCOPE_LIVE_SOURCE: Type.Optional(oneOf(LIVE_SOURCES, 'Where the live view reads beside a TSDB')),
  FABSCOPE_METRICS_SOURCE: withDefault(
    oneOf(
      ['fabscope', 'node_exporter', 'infiniband_exporter', 'snmp_exporter'] as const,
      'Whose series the store reads',
    ),
    'fabscope',
  ),
  FABSCOPE_NODE_EXPORTER_HOSTS: Type.Optional(text('node_exporter or snmp_exporter instance=node pairs')),
  FABSCOPE_DEVICE_PORTS: Type.Optional(text('node_exporter device:port=port pairs')),
  FABSCOPE_TOPOLOGY: Type.Optional(text('A topology file to load instead of the scenario')),
  FABSCOPE_NODE_NAME_MAP: Type.Optional(
    text('Node names by GUID, as ibnetdiscover --node-name-map reads them (GUID "name" a line)'),
  ),
  FABSCOPE_ROUTING: withDefault(oneOf(ROUTINGS, 'Routing engine', 'minhop, fattree or auto'), 'auto'),
  FABSCOPE_EVENTS_DIR: Type.Optional(text('Directory of the events file; default beside the history')),
  FABSCOPE_HISTORY_SECONDS: Type.Optional(
    whole(10, 86_400, 'History the embedded store keeps (default 3600)'),
  ),
  FABSCOPE_HISTORY_MAX_BYTES: Type.Optional(
    whole(
      2 ** 20,
      2 ** 40,
      'Most bytes of history, in memory and on disk each (default 512 MiB)',
      'a number of bytes 1048576..1099511627776',
    ),
  ),
  FABSCOPE_DATA_DIR: Type.Optional(text('Where the history is kept; default $XDG_STATE_HOME/fabscope')),
  FABSCOPE_PM_THRESHOLDS: Type.Optional(text('opafm.xml whose PM thresholds and weights apply')),
  FABSCOPE_JOBS: Type.Optional(text('Job source: slurm, slurm-text or file:PATH')),
  FABSCOPE_SQUEUE: withDefault(text('The squeue command'), 'squeue'),
  FABSCOPE_SQUEUE_TIMEOUT_MS: withDefault(whole(100, 60_000, 'Longest squeue may run'), 5000),
  FABSCOPE_OPAFM_XML: Type.Optional(
    text('The fabric manager config adaptive routing is read from and written to'),
  ),
  FABSCOPE_OPAFM_APPLY: Type.Optional(text('Command run after each change (the FM reload)')),
  FABSCOPE_LFTS: Type.Optional(text("The subnet manager's tables: opensm-lfts.dump, ibroute or dump_fts")),
  FABSCOPE_LFTS_INTERVAL_MS: Type.Optional(
    whole(100, 3_600_000, 'How often they are read (1 s file, 30 s tools)'),
  ),
  FABSCOPE_FABRIC: withDefault(oneOf(FABRIC_SOURCE_KINDS, 'What fabric is watched'), 'emulator'),
  FABSCOPE_DISCOVER_INTERVAL_MS: withDefault(
    whole(1000, 86_400_000, 'How often a real fabric is re-discovered', 'an integer 1000..86400000'),
    60_000,
  ),
  FABSCOPE_IB_RESET_COUNTERS: withDefault(
    oneOf(
      ['false', 'true'] as const,
      'Clear narrow InfiniBand counters before they saturate',
      'true or false',
    ),
    'false',
  ),
  FABSCOPE_IB_PORTS: Type.Optional(
    text('Local InfiniBand ports whose subnets are watched (mlx5_0:1,mlx5_1:1); default every port up'),
  ),
  FABSCOPE_SNMP_TARGETS: Type.Optional(
    text('With FABSCOPE_FABRIC=snmp: the switch agents, one a line ("HOST[:PORT] v2c COMMUNITY" or v3)'),
  ),
  FABSCOPE_EXPECTED_TOPOLOGY: Type.Optional(text('The intended design drift is measured against')),
  FABSCOPE_DRIFT_STABLE_SECONDS: withDefault(
    whole(0, 86_400, 'How long a drift finding holds before it is reported', 'an integer 0..86400'),
    30,
  ),
  FABSCOPE_TOPOLOGY_VERSIONS: withDefault(
    whole(2, 10_000, 'Topology versions kept', 'an integer 2..10000'),
    100,
  ),
  FABSCOPE_LOG_LEVEL: withDefault(oneOf(LOG_LEVELS, 'Log level on stderr'), 'warn'),
  FABSCOPE_EMULATOR_TIMEOUT_MS: Type.Optional(whole(100, 600_000, 'Longest the API waits for the emulator')),
});

export type Environment = Static<typeof ENVIRONMENT>;

/** Variables whose integers are digits only (as written in a unit file), not any number Number() reads. */
const DIGITS_ONLY = new Set([
  'FABSCOPE_DISCOVER_INTERVAL_MS',
  'FABSCOPE_DRIFT_STABLE_SECONDS',
  'FABSCOPE_TOPOLOGY_VERSIONS',
]);

/** The environment checked against ENVIRONMENT, defaults filled in (unset = empty); a bad value is a ConfigError. */
export function readEnvironment(env: NodeJS.ProcessEnv): Environment {
  const read: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ENVIRONMENT.properties) as [string, TSchema][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      if (schema.default !== undefined) read[name] = schema.default;
      continue;
    }
    const integer = schema.type === 'integer';
    const value = integer ? Number(raw) : raw;
    if (!Value.Check(schema, value) || (integer && DIGITS_ONLY.has(name) && !/^\d+$/.test(raw.trim()))) {
      throw new ConfigError(`${name} must be ${schema.said}, got "${raw}"`);
    }
    read[name] = value;
  }
  return read as Environment;
}
