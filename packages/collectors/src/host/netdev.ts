import type { ExpositionWriter } from '../exposition/writer.ts';
import { parseCounter, type TreeReader } from './reader.ts';
import { type DeviceFilter, deviceSelected } from './sysfs-infiniband.ts';

/** `statistics/` files → node_exporter's netdev names (the /proc/net/dev columns). */
const STATISTICS: Record<string, string> = {
  rx_bytes: 'receive_bytes',
  rx_packets: 'receive_packets',
  rx_errors: 'receive_errs',
  rx_dropped: 'receive_drop',
  rx_fifo_errors: 'receive_fifo',
  rx_frame_errors: 'receive_frame',
  rx_compressed: 'receive_compressed',
  multicast: 'receive_multicast',
  tx_bytes: 'transmit_bytes',
  tx_packets: 'transmit_packets',
  tx_errors: 'transmit_errs',
  tx_dropped: 'transmit_drop',
  tx_fifo_errors: 'transmit_fifo',
  collisions: 'transmit_colls',
  tx_carrier_errors: 'transmit_carrier',
  tx_compressed: 'transmit_compressed',
};

const HELP: Record<string, string> = Object.fromEntries(
  Object.values(STATISTICS).map((name) => [name, `Network device statistic ${name}.`]),
);

/** Every interface under `class/net` (Ethernet, IPoIB, loopback), read now. */
export function collectNetdev(reader: TreeReader, out: ExpositionWriter, filter: DeviceFilter): void {
  const base = 'class/net';
  for (const device of reader.directories(base)) {
    if (!deviceSelected(device, filter)) continue;
    const dir = `${base}/${device}`;
    const labels = { device };
    for (const file of reader.list(`${dir}/statistics`)) {
      const name = STATISTICS[file];
      if (!name) continue;
      const value = parseCounter(reader.text(`${dir}/statistics/${file}`));
      if (value !== null) out.counter(`node_network_${name}_total`, HELP[name] as string, labels, value);
    }
    const operstate = reader.text(`${dir}/operstate`);
    if (operstate !== null) {
      out.gauge(
        'node_network_up',
        "Value is 1 if operstate is 'up', 0 otherwise.",
        labels,
        operstate === 'up' ? 1 : 0,
      );
      out.gauge(
        'fabscope_network_operstate_info',
        'Operational state of the interface, always 1.',
        { device, operstate },
        1,
      );
    }
    const mtu = parseCounter(reader.text(`${dir}/mtu`));
    if (mtu !== null) out.gauge('node_network_mtu_bytes', 'Network device property: mtu_bytes', labels, mtu);
    // speed is in Mb/s; -1 (unknown) and EINVAL (virtual devices) are missing, not negative.
    const speed = parseCounter(reader.text(`${dir}/speed`));
    if (speed !== null)
      out.gauge('node_network_speed_bytes', 'Network device property: speed_bytes', labels, speed * 125_000);
  }
}
