// The part of net-snmp (which ships no types) this source calls.
declare module 'net-snmp' {
  export interface Varbind {
    oid: string;
    type: number;
    value: unknown;
  }
  export interface SessionOptions {
    port?: number;
    retries?: number;
    timeout?: number;
    version?: number;
    transport?: string;
    context?: string;
  }
  export interface V3User {
    name: string;
    level: number;
    authProtocol?: number;
    authKey?: string;
    privProtocol?: number;
    privKey?: string;
  }
  export interface Session {
    get(oids: string[], cb: (error: Error | null, varbinds: Varbind[]) => void): void;
    /** Each repeater's varbinds come as an array of its rows (net-snmp groups them by requested OID). */
    getBulk(
      oids: string[],
      nonRepeaters: number,
      maxRepetitions: number,
      cb: (error: Error | null, varbinds: (Varbind | Varbind[])[]) => void,
    ): void;
    tableColumns(
      oid: string,
      columns: number[],
      maxRepetitions: number,
      cb: (error: Error | null, table: Record<string, Record<string, unknown>>) => void,
    ): void;
    subtree(
      oid: string,
      maxRepetitions: number,
      feed: (varbinds: Varbind[]) => boolean | undefined,
      done: (error: Error | null) => void,
    ): void;
    close(): void;
    on(event: 'error', cb: (error: Error) => void): void;
  }
  export function createSession(target: string, community: string, options?: SessionOptions): Session;
  export function createV3Session(target: string, user: V3User, options?: SessionOptions): Session;
  export function isVarbindError(varbind: Varbind): boolean;
  export function varbindError(varbind: Varbind): string;
  export class RequestTimedOutError extends Error {}
  export const Version2c: number;
  export const Version3: number;
  export const SecurityLevel: { noAuthNoPriv: number; authNoPriv: number; authPriv: number };
  export const AuthProtocols: Record<
    'none' | 'md5' | 'sha' | 'sha224' | 'sha256' | 'sha384' | 'sha512',
    number
  >;
  export const PrivProtocols: Record<'none' | 'des' | 'aes' | 'aes256b' | 'aes256r', number>;
  const snmp: {
    createSession: typeof createSession;
    createV3Session: typeof createV3Session;
    isVarbindError: typeof isVarbindError;
    varbindError: typeof varbindError;
    RequestTimedOutError: typeof RequestTimedOutError;
    Version2c: number;
    Version3: number;
    SecurityLevel: typeof SecurityLevel;
    AuthProtocols: typeof AuthProtocols;
    PrivProtocols: typeof PrivProtocols;
  };
  export default snmp;
}
