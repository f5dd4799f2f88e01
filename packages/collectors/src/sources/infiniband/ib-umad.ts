import { type IbLocalPort, ibPortName } from '@fabscope/contracts/names';
import koffi from 'koffi';

/** libibumad (rdma-core `libibumad/umad.h`) through koffi; loaded only in the port reader's child. */

/** The library's soname (Debian libibumad3, installed with infiniband-diags). */
const LIBIBUMAD = 'libibumad.so.3';

/**
 * struct ib_user_mad (kernel uapi ib_user_mad.h): agent_id, status, timeout_ms, retries, length (u32 each), then
 * struct ib_mad_addr: qpn and qkey (be32), lid (be16), sl (u8).
 */
const ADDR_QPN = 20;
const ADDR_QKEY = 24;
const ADDR_LID = 28;
const ADDR_SL = 30;

class UmadError extends Error {
  override name = 'UmadError';
}

export interface UmadPort {
  /** Bytes of `struct ib_user_mad` before the MAD itself. */
  readonly headerSize: number;
  /** Registers an agent for a management class (version 1); returns its id. */
  register(mgmtClass: number): number;
  /**
   * Sends the MAD in `umad` (header + 256 bytes) to `lid`/`qp`; `timeoutMs` asks the kernel to
   * give the send back with status ETIMEDOUT when no answer came. False when the send failed.
   */
  send(agent: number, umad: Buffer, lid: number, qp: number, qkey: number, timeoutMs: number): boolean;
  /**
   * Waits up to `timeoutMs` for a MAD into `umad`: its agent id, or -1 if none came or the read failed (waiting MADs
   * then time out). The umad header's status (offset 4) is non-zero for a send given back (timed out, no route).
   */
  recv(umad: Buffer, timeoutMs: number): number;
  close(): void;
}

/**
 * Opens `port` of its adapter (`umad_open_port(ca, port)`), the subnet cabled to it; without one, the first
 * port of the first adapter (what `umad_open_port(NULL, 0)` picks, as the tools do).
 */
export function openUmadPort(port?: IbLocalPort, library = LIBIBUMAD): UmadPort {
  const lib = koffi.load(library);
  const umadInit = lib.func('int umad_init(void)');
  const umadOpenPort = lib.func('int umad_open_port(const char *ca_name, int portnum)');
  const umadClosePort = lib.func('int umad_close_port(int portid)');
  const umadSize = lib.func('size_t umad_size(void)');
  const umadRegister = lib.func(
    'int umad_register(int portid, int mgmt_class, int mgmt_version, uint8_t rmpp_version, void *method_mask)',
  );
  const umadUnregister = lib.func('int umad_unregister(int portid, int agentid)');
  const umadSend = lib.func(
    'int umad_send(int portid, int agentid, void *umad, int length, int timeout_ms, int retries)',
  );
  const umadRecv = lib.func('int umad_recv(int portid, void *umad, int *length, int timeout_ms)');

  if ((umadInit() as number) < 0) throw new UmadError('umad_init failed');
  const fd = umadOpenPort(port?.ca ?? null, port?.port ?? 0) as number;
  if (fd < 0) {
    throw new UmadError(
      port
        ? `umad_open_port: cannot open port ${ibPortName(port)} to send MADs from (error ${-fd}; is the adapter there, the port up and its umad device readable?)`
        : `umad_open_port: no InfiniBand port to send MADs from (error ${-fd}; is /dev/infiniband/umad0 there and readable?)`,
    );
  }
  const headerSize = Number(umadSize());
  const agents: number[] = [];
  const length = new Int32Array(1);
  let open = true;
  return {
    headerSize,
    register(mgmtClass) {
      const agent = umadRegister(fd, mgmtClass, 1, 0, null) as number;
      if (agent < 0)
        throw new UmadError(`umad_register of class 0x${mgmtClass.toString(16)} failed (${agent})`);
      agents.push(agent);
      return agent;
    },
    send(agent, umad, lid, qp, qkey, timeoutMs) {
      // umad_set_addr's four stores, without a call into the library per MAD (struct ib_mad_addr, big-endian).
      umad.writeUInt32BE(qp >>> 0, ADDR_QPN);
      umad.writeUInt32BE(qkey >>> 0, ADDR_QKEY);
      umad.writeUInt16BE(lid, ADDR_LID);
      umad[ADDR_SL] = 0;
      return (umadSend(fd, agent, umad, umad.length - headerSize, timeoutMs, 0) as number) >= 0;
    },
    recv(umad, timeoutMs) {
      length[0] = umad.length - headerSize;
      const rc = umadRecv(fd, umad, length, timeoutMs) as number;
      return rc < 0 ? -1 : rc;
    },
    close() {
      if (!open) return;
      open = false;
      for (const agent of agents) umadUnregister(fd, agent);
      umadClosePort(fd);
    },
  };
}
