import { rateOfWidthSpeed } from '@fabscope/topology';
/**
 * Parser for `ibnetdiscover -p` (`--ports`): one line per port, with its link partner when cabled.
 *
 *   SW  1719 10 0x7cfe9003009ce5b0 4x EDR - CA  134  1 0x7cfe9003003b4bde ( 'sw-a' - 'node1 HCA-1' )
 *   SW  2052 37 0x506b4b03005c2740 4x ???                                    'sw-b'
 *
 * Lines that match neither shape (a stderr warning at the top, blank lines) are skipped.
 */
export type IbNodeType = 'CA' | 'SW' | 'RT';

export interface IbPortEnd {
  type: IbNodeType;
  lid: number;
  port: number;
  guid: string;
  name: string;
}

export interface IbPortLine {
  local: IbPortEnd;
  width: string;
  speed: string;
  /** Bytes per second of the link (width × nominal lane rate, as sysfs `rate`), null if unknown. */
  rateBytesPerSecond: number | null;
  remote: IbPortEnd | null;
}

export function linkRateBytesPerSecond(width: string, speed: string): number | null {
  const rateGbps = rateOfWidthSpeed(Number(width.replace(/x$/i, '')), speed);
  return rateGbps === undefined ? null : (rateGbps * 1e9) / 8;
}

export function normalizeGuid(guid: string): string {
  const hex = guid.toLowerCase().replace(/^0x/, '');
  return `0x${hex.padStart(16, '0')}`;
}

const CONNECTED =
  /^(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]+)\s+(\d+x)\s+(\S+)\s+-\s+(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]+)\s+\(\s*'(.*)'\s+-\s+'(.*)'\s*\)\s*$/;
const UNCONNECTED = /^(CA|SW|RT)\s+(\d+)\s+(\d+)\s+(0x[0-9a-fA-F]+)\s+(\d+x)\s+(\S+)\s*(?:'(.*)'|(.*))$/;

export function parseIbnetdiscoverPorts(text: string): IbPortLine[] {
  const lines: IbPortLine[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const c = line.match(CONNECTED);
    if (c) {
      const [, t, lid, port, guid, width, speed, rt, rlid, rport, rguid, name, rname] =
        c as unknown as string[];
      lines.push({
        local: {
          type: t as IbNodeType,
          lid: Number(lid),
          port: Number(port),
          guid: normalizeGuid(guid as string),
          name: (name as string).trim(),
        },
        width: width as string,
        speed: speed as string,
        rateBytesPerSecond: linkRateBytesPerSecond(width as string, speed as string),
        remote: {
          type: rt as IbNodeType,
          lid: Number(rlid),
          port: Number(rport),
          guid: normalizeGuid(rguid as string),
          name: (rname as string).trim(),
        },
      });
      continue;
    }
    const u = line.match(UNCONNECTED);
    if (u) {
      const [, t, lid, port, guid, width, speed, quoted, bare] = u as unknown as (string | undefined)[];
      lines.push({
        local: {
          type: t as IbNodeType,
          lid: Number(lid),
          port: Number(port),
          guid: normalizeGuid(guid as string),
          name: (quoted ?? bare ?? '').trim(),
        },
        width: width as string,
        speed: speed as string,
        rateBytesPerSecond: linkRateBytesPerSecond(width as string, speed as string),
        remote: null,
      });
    }
  }
  return lines;
}
