import * as grpc from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';

/**
 * The part of gnmi.proto fabscope speaks (the Subscribe RPC), with upstream's package, names and
 * field numbers: github.com/openconfig/gnmi v0.14.1, proto/gnmi/gnmi.proto, Apache License 2.0,
 * Copyright 2016 Google Inc. Declared here in protobufjs's JSON form, which @grpc/proto-loader reads
 * at run time: no generated code to keep in step, and no .proto file beside the CLI's bundle to lose.
 * Fields left out (Any payloads, extensions, deprecated Value) are skipped on decode as unknown.
 */
export const GNMI_SUBSET = {
  nested: {
    gnmi: {
      nested: {
        gNMI: {
          methods: {
            Subscribe: {
              requestType: 'SubscribeRequest',
              requestStream: true,
              responseType: 'SubscribeResponse',
              responseStream: true,
            },
          },
        },
        Notification: {
          fields: {
            timestamp: { type: 'int64', id: 1 },
            prefix: { type: 'Path', id: 2 },
            update: { rule: 'repeated', type: 'Update', id: 4 },
            delete: { rule: 'repeated', type: 'Path', id: 5 },
            atomic: { type: 'bool', id: 6 },
          },
        },
        Update: {
          fields: {
            path: { type: 'Path', id: 1 },
            val: { type: 'TypedValue', id: 3 },
            duplicates: { type: 'uint32', id: 4 },
          },
        },
        TypedValue: {
          oneofs: {
            value: {
              oneof: [
                'string_val',
                'int_val',
                'uint_val',
                'bool_val',
                'bytes_val',
                'float_val',
                'double_val',
                'decimal_val',
                'leaflist_val',
                'json_val',
                'json_ietf_val',
                'ascii_val',
              ],
            },
          },
          fields: {
            string_val: { type: 'string', id: 1 },
            int_val: { type: 'int64', id: 2 },
            uint_val: { type: 'uint64', id: 3 },
            bool_val: { type: 'bool', id: 4 },
            bytes_val: { type: 'bytes', id: 5 },
            float_val: { type: 'float', id: 6 },
            double_val: { type: 'double', id: 14 },
            decimal_val: { type: 'Decimal64', id: 7 },
            leaflist_val: { type: 'ScalarArray', id: 8 },
            json_val: { type: 'bytes', id: 10 },
            json_ietf_val: { type: 'bytes', id: 11 },
            ascii_val: { type: 'string', id: 12 },
          },
        },
        Path: {
          fields: {
            element: { rule: 'repeated', type: 'string', id: 1 },
            origin: { type: 'string', id: 2 },
            elem: { rule: 'repeated', type: 'PathElem', id: 3 },
            target: { type: 'string', id: 4 },
          },
        },
        PathElem: {
          fields: {
            name: { type: 'string', id: 1 },
            key: { keyType: 'string', type: 'string', id: 2 },
          },
        },
        Encoding: { values: { JSON: 0, BYTES: 1, PROTO: 2, ASCII: 3, JSON_IETF: 4 } },
        Error: {
          fields: { code: { type: 'uint32', id: 1 }, message: { type: 'string', id: 2 } },
        },
        Decimal64: {
          fields: { digits: { type: 'int64', id: 1 }, precision: { type: 'uint32', id: 2 } },
        },
        ScalarArray: { fields: { element: { rule: 'repeated', type: 'TypedValue', id: 1 } } },
        SubscribeRequest: {
          oneofs: { request: { oneof: ['subscribe', 'poll'] } },
          fields: {
            subscribe: { type: 'SubscriptionList', id: 1 },
            poll: { type: 'Poll', id: 3 },
          },
        },
        Poll: { fields: {} },
        SubscribeResponse: {
          oneofs: { response: { oneof: ['update', 'sync_response', 'error'] } },
          fields: {
            update: { type: 'Notification', id: 1 },
            sync_response: { type: 'bool', id: 3 },
            error: { type: 'Error', id: 4 },
          },
        },
        SubscriptionList: {
          nested: { Mode: { values: { STREAM: 0, ONCE: 1, POLL: 2 } } },
          fields: {
            prefix: { type: 'Path', id: 1 },
            subscription: { rule: 'repeated', type: 'Subscription', id: 2 },
            mode: { type: 'Mode', id: 5 },
            allow_aggregation: { type: 'bool', id: 6 },
            encoding: { type: 'Encoding', id: 8 },
            updates_only: { type: 'bool', id: 9 },
          },
        },
        Subscription: {
          fields: {
            path: { type: 'Path', id: 1 },
            mode: { type: 'SubscriptionMode', id: 2 },
            sample_interval: { type: 'uint64', id: 3 },
            suppress_redundant: { type: 'bool', id: 4 },
            heartbeat_interval: { type: 'uint64', id: 5 },
          },
        },
        SubscriptionMode: { values: { TARGET_DEFINED: 0, ON_CHANGE: 1, SAMPLE: 2 } },
      },
    },
  },
};

/** A path as decoded: `elem` (gNMI 0.4+) or the deprecated `element` strings older targets still send. */
export interface GnmiPath {
  element?: string[];
  origin?: string;
  elem?: { name?: string; key?: Record<string, string> }[];
  target?: string;
}

/** A TypedValue as decoded: 64-bit integers as decimal strings, bytes as Buffers; one field set. */
export interface GnmiTypedValue {
  value?: string;
  string_val?: string;
  int_val?: string;
  uint_val?: string;
  bool_val?: boolean;
  bytes_val?: Buffer;
  float_val?: number;
  double_val?: number;
  decimal_val?: { digits?: string; precision?: number };
  leaflist_val?: { element?: GnmiTypedValue[] };
  json_val?: Buffer;
  json_ietf_val?: Buffer;
  ascii_val?: string;
}

export interface GnmiNotification {
  timestamp?: string;
  prefix?: GnmiPath;
  update?: { path?: GnmiPath; val?: GnmiTypedValue }[];
  delete?: GnmiPath[];
}

export interface GnmiSubscribeResponse {
  response?: 'update' | 'sync_response' | 'error';
  update?: GnmiNotification;
  sync_response?: boolean;
  error?: { code?: number; message?: string };
}

/** The SubscribeRequest fabscope sends: one STREAM list of SAMPLE subscriptions. */
export interface GnmiSubscribeRequest {
  subscribe: {
    prefix?: { target?: string; origin?: string };
    subscription: {
      path: { origin?: string; elem: { name: string; key?: Record<string, string> }[] };
      mode: 'SAMPLE';
      sample_interval: string;
    }[];
    mode: 'STREAM';
    encoding: 'PROTO' | 'JSON_IETF' | 'JSON';
  };
}

export type GnmiClient = grpc.Client & {
  Subscribe(
    metadata: grpc.Metadata,
    options?: grpc.CallOptions,
  ): grpc.ClientDuplexStream<GnmiSubscribeRequest, GnmiSubscribeResponse>;
};

type GnmiClientConstructor = new (
  address: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ChannelOptions,
) => GnmiClient;

let clientClass: GnmiClientConstructor | undefined;

/** The gNMI service's client class, built once from the subset above. */
export function gnmiClientClass(): GnmiClientConstructor {
  if (!clientClass) {
    // protobufjs's typings ask for every method's `comment` and know no map fields; its reader does not.
    const definition = fromJSON(GNMI_SUBSET as unknown as Parameters<typeof fromJSON>[0], {
      keepCase: true,
      longs: String,
      enums: String,
      defaults: false,
      oneofs: true,
    });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      gnmi: { gNMI: GnmiClientConstructor };
    };
    clientClass = loaded.gnmi.gNMI;
  }
  return clientClass;
}
