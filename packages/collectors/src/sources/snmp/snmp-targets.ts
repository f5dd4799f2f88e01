/** One SNMP agent to walk: where it answers and how to speak to it. */
export interface SnmpTarget {
  host: string;
  port: number;
  /** `host:port`, as reports and errors name the agent. */
  label: string;
  credentials: SnmpV2cCredentials | SnmpV3Credentials;
}

export interface SnmpV2cCredentials {
  version: '2c';
  community: string;
}

export type SnmpAuthProtocol = 'md5' | 'sha' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
export type SnmpPrivProtocol = 'des' | 'aes' | 'aes256b' | 'aes256r';

export interface SnmpV3Credentials {
  version: '3';
  user: string;
  /** The SNMPv3 context (some agents serve a table per context, snmpsim a recording per context). */
  context?: string;
  auth?: { protocol: SnmpAuthProtocol; key: string };
  priv?: { protocol: SnmpPrivProtocol; key: string };
}

const AUTH = new Set<string>(['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512']);
const PRIV = new Set<string>(['des', 'aes', 'aes256b', 'aes256r']);
const FORMAT =
  'expected "HOST[:PORT] v2c COMMUNITY" or "HOST[:PORT] v3 USER [AUTH_PROTO AUTH_KEY [PRIV_PROTO PRIV_KEY]] [context=NAME]"';

/** `host`, `host:port`, `[v6]` or `[v6]:port`; the port 161 unless given. */
function parseAddress(text: string, where: string): { host: string; port: number } {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+))(?::(\d+))?$/.exec(text);
  const host = m?.[1] ?? m?.[2];
  const port = m?.[3] === undefined ? 161 : Number(m[3]);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${where}: "${text}" is not HOST[:PORT] with a port in 1..65535`);
  }
  return { host, port };
}

function parseV3(all: string[], where: string): SnmpV3Credentials {
  const contexts = all.filter((f) => f.startsWith('context='));
  const fields = all.filter((f) => !f.startsWith('context='));
  const [user, authProto, authKey, privProto, privKey, ...rest] = fields;
  if (contexts.length > 1) throw new Error(`${where}: context= given twice`);
  if (!user || rest.length > 0 || (authProto && !authKey) || (privProto && !privKey)) {
    throw new Error(`${where}: ${FORMAT}`);
  }
  const credentials: SnmpV3Credentials = { version: '3', user };
  const context = contexts[0]?.slice('context='.length);
  if (context) credentials.context = context;
  if (authProto && authKey) {
    const protocol = authProto.toLowerCase();
    if (!AUTH.has(protocol))
      throw new Error(`${where}: auth protocol must be one of ${[...AUTH].join(', ')}, got "${authProto}"`);
    credentials.auth = { protocol: protocol as SnmpAuthProtocol, key: authKey };
  }
  if (privProto && privKey) {
    const protocol = privProto.toLowerCase();
    if (!PRIV.has(protocol))
      throw new Error(`${where}: priv protocol must be one of ${[...PRIV].join(', ')}, got "${privProto}"`);
    credentials.priv = { protocol: protocol as SnmpPrivProtocol, key: privKey };
  }
  return credentials;
}

/** Targets file: an agent per line, fields separated by blanks, `#` comments; errors name the line. */
export function parseSnmpTargets(text: string): SnmpTarget[] {
  const targets: SnmpTarget[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const where = `targets line ${i + 1}`;
    const [hostPort, version, ...rest] = line.split(/\s+/);
    const { host, port } = parseAddress(hostPort ?? '', where);
    let credentials: SnmpTarget['credentials'];
    if (version === 'v2c' && rest.length === 1 && rest[0]) {
      credentials = { version: '2c', community: rest[0] };
    } else if (version === 'v3') {
      credentials = parseV3(rest, where);
    } else {
      throw new Error(`${where}: ${FORMAT}`);
    }
    const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const key = `${address} ${JSON.stringify(credentials)}`;
    if (seen.has(key)) throw new Error(`${where}: ${address} is listed twice with the same credentials`);
    // One address may serve several agents (contexts, communities): the line tells them apart, not the secret.
    const label = targets.some((t) => t.label === address) ? `${address}/line${i + 1}` : address;
    seen.add(key);
    targets.push({ host, port, label, credentials });
  });
  if (targets.length === 0) throw new Error('targets: no agent listed');
  return targets;
}
