import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { parsePathText, SUBSCRIBED_PATHS } from './gnmi-paths.ts';
import { type GnmiClient, type GnmiSubscribeRequest, gnmiClientClass } from './gnmi-proto.ts';
import type { SubscribeCall } from './gnmi-stream.ts';
import type { GnmiTarget } from './gnmi-targets.ts';

/** The SubscribeRequest for a target: STREAM mode, a SAMPLE subscription per path at its interval. */
export function subscribeRequest(target: GnmiTarget): GnmiSubscribeRequest {
  const intervalNs = (BigInt(target.sampleMs) * 1_000_000n).toString();
  return {
    subscribe: {
      ...(target.target ? { prefix: { target: target.target } } : {}),
      subscription: SUBSCRIBED_PATHS.map((p) => ({
        path: { elem: parsePathText(p).map((e) => ({ name: e.name })) },
        mode: 'SAMPLE',
        sample_interval: intervalNs,
      })),
      mode: 'STREAM',
      encoding: target.encoding,
    },
  };
}

/** The file's text, its error naming the option it came from. */
function readOption(file: string, option: string, label: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new Error(`${label}: ${option}=${file}: ${(error as Error).message}`);
  }
}

/** The call metadata carrying the target's username and password, read now from the environment or the file. */
export function credentialMetadata(target: GnmiTarget, env: NodeJS.ProcessEnv = process.env): grpc.Metadata {
  const metadata = new grpc.Metadata();
  const c = target.credentials;
  if (!c) return metadata;
  let password: string;
  if ('env' in c.password) {
    const value = env[c.password.env];
    if (value === undefined) throw new Error(`${target.label}: password-env=${c.password.env} is not set`);
    password = value;
  } else {
    password = readOption(c.password.file, 'password-file', target.label).toString('utf8').trim();
  }
  metadata.set('username', c.username);
  metadata.set('password', password);
  return metadata;
}

function channelCredentials(target: GnmiTarget): grpc.ChannelCredentials {
  const t = target.transport;
  if (t.kind === 'insecure') return grpc.credentials.createInsecure();
  return grpc.credentials.createSsl(
    t.ca ? readOption(t.ca, 'ca', target.label) : null,
    t.key ? readOption(t.key, 'key', target.label) : null,
    t.cert ? readOption(t.cert, 'cert', target.label) : null,
  );
}

/** A gRPC channel to one target (it reconnects by itself) and how to open a Subscribe call on it. */
export function gnmiConnection(target: GnmiTarget): { open: () => SubscribeCall; close: () => void } {
  // A password variable or file that is not there is a setting to fix, said at start, not a stream to retry.
  credentialMetadata(target);
  const Client = gnmiClientClass();
  const address = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
  const serverName = target.transport.kind === 'tls' ? target.transport.serverName : undefined;
  const client: GnmiClient = new Client(address, channelCredentials(target), {
    // A silent peer (cable pulled, target hung) is found by keepalive rather than by waiting forever.
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    ...(serverName ? { 'grpc.ssl_target_name_override': serverName } : {}),
  });
  return {
    open: () => client.Subscribe(credentialMetadata(target)),
    close: () => client.close(),
  };
}
