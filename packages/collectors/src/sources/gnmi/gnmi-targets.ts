/** One gNMI target to subscribe to: where it answers, how to reach it, and what to ask. */
export interface GnmiTarget {
  host: string;
  port: number;
  /** `host:port`, as reports and errors name the target. */
  label: string;
  /** The switch's name in the fabric: `name=`, else the host. */
  name: string;
  /** `insecure`: plaintext gRPC; `tls`: verified against `ca=` (else the system's roots). */
  transport: { kind: 'insecure' } | GnmiTls;
  /** Sent as `username`/`password` call metadata; the password never in the file itself. */
  credentials?: { username: string; password: { env: string } | { file: string } };
  /** The gNMI prefix target (`target=`), for agents that proxy several devices. */
  target?: string;
  /** SAMPLE interval asked of the target. */
  sampleMs: number;
  encoding: 'PROTO' | 'JSON_IETF' | 'JSON';
}

export interface GnmiTls {
  kind: 'tls';
  /** PEM file of the CA that signed the target's certificate. */
  ca?: string;
  /** Client certificate and key (PEM files), for targets that ask for one. */
  cert?: string;
  key?: string;
  /** The name to check the certificate against, when it is not the host. */
  serverName?: string;
}

const FORMAT =
  'expected "HOST[:PORT] insecure|tls [name=N] [target=T] [ca=FILE] [cert=FILE key=FILE] [server-name=N] ' +
  '[username=U password-env=VAR|password-file=FILE] [sample-ms=MS] [encoding=proto|json_ietf|json]"';
const OPTIONS = new Set([
  'name',
  'target',
  'ca',
  'cert',
  'key',
  'server-name',
  'username',
  'password-env',
  'password-file',
  'sample-ms',
  'encoding',
]);
const TLS_ONLY = ['ca', 'cert', 'key', 'server-name'];
const ENCODINGS = { proto: 'PROTO', json_ietf: 'JSON_IETF', json: 'JSON' } as const;
/** gNMI's IANA-assigned port. */
const DEFAULT_PORT = 9339;

/** `host`, `host:port`, `[v6]` or `[v6]:port`. */
function parseAddress(text: string, where: string): { host: string; port: number } {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+))(?::(\d+))?$/.exec(text);
  const host = m?.[1] ?? m?.[2];
  const port = m?.[3] === undefined ? DEFAULT_PORT : Number(m[3]);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${where}: "${text}" is not HOST[:PORT] with a port in 1..65535`);
  }
  return { host, port };
}

function parseOptions(fields: string[], where: string): Map<string, string> {
  const options = new Map<string, string>();
  for (const field of fields) {
    const eq = field.indexOf('=');
    const key = eq > 0 ? field.slice(0, eq) : field;
    const value = eq > 0 ? field.slice(eq + 1) : '';
    if (!OPTIONS.has(key)) throw new Error(`${where}: unknown option "${key}"; ${FORMAT}`);
    if (value === '') throw new Error(`${where}: ${key}= needs a value`);
    if (options.has(key)) throw new Error(`${where}: ${key}= given twice`);
    options.set(key, value);
  }
  return options;
}

function credentialsOf(o: Map<string, string>, where: string): GnmiTarget['credentials'] {
  const username = o.get('username');
  const env = o.get('password-env');
  const file = o.get('password-file');
  if (env && file) throw new Error(`${where}: give password-env= or password-file=, not both`);
  if (!username && (env || file)) throw new Error(`${where}: a password needs username=`);
  if (!username) return undefined;
  if (!env && !file) {
    throw new Error(
      `${where}: username= needs password-env=VAR or password-file=FILE (never the password itself)`,
    );
  }
  return { username, password: env ? { env } : { file: file as string } };
}

function sampleMsOf(text: string | undefined, where: string): number {
  if (text === undefined) return 10_000;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms < 100 || ms > 3_600_000) {
    throw new Error(`${where}: sample-ms= must be an integer from 100 to 3600000, got "${text}"`);
  }
  return ms;
}

function parseLine(line: string, where: string): GnmiTarget {
  const [hostPort, kind, ...rest] = line.split(/\s+/);
  const { host, port } = parseAddress(hostPort ?? '', where);
  if (kind !== 'insecure' && kind !== 'tls') throw new Error(`${where}: ${FORMAT}`);
  const o = parseOptions(rest, where);
  const tlsOption = TLS_ONLY.find((k) => o.has(k));
  if (kind === 'insecure' && tlsOption) throw new Error(`${where}: ${tlsOption}= needs tls, not insecure`);
  if (o.has('cert') !== o.has('key')) throw new Error(`${where}: cert= and key= go together`);
  const encodingText = o.get('encoding') ?? 'proto';
  const encoding = ENCODINGS[encodingText as keyof typeof ENCODINGS];
  if (!encoding)
    throw new Error(`${where}: encoding= must be proto, json_ietf or json, got "${encodingText}"`);
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const transport: GnmiTarget['transport'] =
    kind === 'insecure'
      ? { kind: 'insecure' }
      : {
          kind: 'tls',
          ...(o.has('ca') ? { ca: o.get('ca') } : {}),
          ...(o.has('cert') ? { cert: o.get('cert'), key: o.get('key') } : {}),
          ...(o.has('server-name') ? { serverName: o.get('server-name') } : {}),
        };
  const credentials = credentialsOf(o, where);
  const target = o.get('target');
  return {
    host,
    port,
    label: address,
    name: o.get('name') ?? host,
    transport,
    ...(credentials ? { credentials } : {}),
    ...(target ? { target } : {}),
    sampleMs: sampleMsOf(o.get('sample-ms'), where),
    encoding,
  };
}

/** Targets file: a target per line, fields separated by blanks, `#` comments; errors name the line. */
export function parseGnmiTargets(text: string): GnmiTarget[] {
  const targets: GnmiTarget[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const where = `targets line ${i + 1}`;
    const t = parseLine(line, where);
    const key = `${t.label} ${t.target ?? ''}`;
    if (targets.some((o) => `${o.label} ${o.target ?? ''}` === key)) {
      throw new Error(`${where}: ${t.label}${t.target ? ` target=${t.target}` : ''} is listed twice`);
    }
    if (targets.some((o) => o.name === t.name)) throw new Error(`${where}: name ${t.name} is listed twice`);
    // One address may proxy several devices (target=): the line tells them apart.
    const label = targets.some((o) => o.label === t.label) ? `${t.label}/line${i + 1}` : t.label;
    targets.push({ ...t, label });
  });
  if (targets.length === 0) throw new Error('targets: no target listed');
  return targets;
}
