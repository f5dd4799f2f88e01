import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IbLocalPort } from '@fabscope/contracts/names';
import { parseStateLine } from '../../host/sysfs-infiniband.ts';

/** Where the kernel lists the adapters (the sysfs root is a parameter so tests read a tree of their own). */
export const SYSFS_INFINIBAND = '/sys/class/infiniband';

/**
 * The environment variable that tells the MAD reader's child which port to open (`mlx5_0:1`); set by its
 * parent only, never by a site: the site lists ports in FABSCOPE_IB_PORTS.
 */
export const READER_PORT_ENV = 'FABSCOPE_IB_READER_PORT';

/** A sysfs file's text without its newline; null when it cannot be read. */
const readText = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
};

/**
 * Every local InfiniBand port whose link is up (physical state LinkUp, or a logical state past DOWN), in
 * adapter and port order; Ethernet ports (RoCE) are not subnets. None when the tree is absent.
 */
export function localIbPorts(root = SYSFS_INFINIBAND): IbLocalPort[] {
  const list = (dir: string) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const found: IbLocalPort[] = [];
  for (const ca of list(root).sort()) {
    const ports = list(join(root, ca, 'ports'))
      .filter((p) => /^\d+$/.test(p))
      .map(Number)
      .sort((a, b) => a - b);
    for (const port of ports) {
      const dir = join(root, ca, 'ports', String(port));
      const layer = readText(join(dir, 'link_layer'));
      if (layer !== null && layer !== 'InfiniBand') continue;
      const phys = parseStateLine(readText(join(dir, 'phys_state')));
      const state = parseStateLine(readText(join(dir, 'state')));
      if (phys?.name === 'LinkUp' || (state !== null && state.id > 1)) found.push({ ca, port });
    }
  }
  return found;
}
