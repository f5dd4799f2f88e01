import type { FabricSnapshot, FabricSource, PortSample } from './port-sample.ts';

interface EmulatorPort {
  nodeGuid: string;
  nodeName: string;
  nodeType: PortSample['nodeType'];
  portNumber: number;
  lid: number;
  rateGbps: number;
  linkState: 'active' | 'down';
  remote: PortSample['remote'];
  counters: Record<'XmitData' | 'RcvData' | 'XmitPkts' | 'RcvPkts' | 'XmitWait', string> &
    Partial<
      Record<'SymbolErrors' | 'LinkErrorRecovery' | 'LinkDowned' | 'RcvErrors' | 'XmitDiscards', string>
    >;
}

const optionalCount = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Number(value);

interface EmulatorPortsDocument {
  fabric: string;
  fabricType: string;
  timeMs: number;
  dataUnitBytes: number;
  ports: EmulatorPort[];
}

/**
 * Native counter (decimal string) × unit → bytes, exact: in doubles below 10^15 (× 8 stays under
 * 2^53), else in BigInt before the float conversion.
 */
function toBytes(value: string, unitBytes: bigint): number {
  return value.length <= 15 ? Number(value) * Number(unitBytes) : Number(BigInt(value) * unitBytes);
}

export function portSamplesFromEmulator(doc: EmulatorPortsDocument): FabricSnapshot {
  if (!Array.isArray(doc.ports) || !Number.isInteger(doc.dataUnitBytes) || doc.dataUnitBytes < 1) {
    throw new Error('emulator /v1/ports answer lacks ports or dataUnitBytes');
  }
  const unit = BigInt(doc.dataUnitBytes);
  const ports = doc.ports.map(
    (p): PortSample => ({
      nodeGuid: p.nodeGuid,
      nodeName: p.nodeName,
      nodeType: p.nodeType,
      portNumber: p.portNumber,
      lid: p.lid,
      rateBytesPerSecond: (p.rateGbps * 1e9) / 8,
      linkUp: p.linkState === 'active',
      remote: p.remote,
      transmitBytes: toBytes(p.counters.XmitData, unit),
      receiveBytes: toBytes(p.counters.RcvData, unit),
      transmitPackets: Number(p.counters.XmitPkts),
      receivePackets: Number(p.counters.RcvPkts),
      transmitWaitTicks: Number(p.counters.XmitWait),
      // The emulator's XmitWait tick is the time to send one data unit at line rate.
      transmitWaitTickSeconds: (doc.dataUnitBytes * 8) / (p.rateGbps * 1e9),
      errors: {
        symbolErrors: optionalCount(p.counters.SymbolErrors),
        linkErrorRecovery: optionalCount(p.counters.LinkErrorRecovery),
        linkDowned: optionalCount(p.counters.LinkDowned),
        receiveErrors: optionalCount(p.counters.RcvErrors),
        transmitDiscards: optionalCount(p.counters.XmitDiscards),
      },
    }),
  );
  return { fabric: doc.fabric, fabricType: doc.fabricType, ports };
}

/** Reads the emulator's switch- and adapter-port endpoint, as a fabric agent polls a real fabric. */
export function emulatorSource(baseUrl: string): FabricSource {
  const url = new URL('/v1/ports', baseUrl).toString();
  return {
    name: url,
    async read(signal) {
      const response = await fetch(url, { signal });
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
      return portSamplesFromEmulator((await response.json()) as EmulatorPortsDocument);
    },
  };
}
