import { type IbLocalPort, ibPortName, readIbPortName } from '@fabscope/contracts/names';
import { ConfigError } from '../errors.ts';

/**
 * FABSCOPE_IB_PORTS (`mlx5_0:1,mlx5_1:1`): the local ports whose subnets are watched, in the order given;
 * undefined when unset. An entry that is not `device:port`, or a port listed twice, is an error naming it.
 */
export function ibPortsFrom(value: string | undefined): IbLocalPort[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ports: IbLocalPort[] = [];
  const seen = new Set<string>();
  for (const entry of value.split(',')) {
    const port = readIbPortName(entry);
    if (!port) {
      throw new ConfigError(
        `FABSCOPE_IB_PORTS must list local ports like "mlx5_0:1,mlx5_1:1" (device:port, port 1..254), got "${entry.trim()}"`,
      );
    }
    const name = ibPortName(port);
    if (seen.has(name)) throw new ConfigError(`FABSCOPE_IB_PORTS lists "${name}" twice`);
    seen.add(name);
    ports.push(port);
  }
  return ports;
}
