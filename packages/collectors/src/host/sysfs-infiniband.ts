import type { ExpositionWriter } from '../exposition/writer.ts';
import { parseCounter, type TreeReader } from './reader.ts';

/** `100 Gb/sec (4X EDR)` → 12.5e9 bytes/s; null when unreadable. */
export function parseRate(text: string | null): number | null {
  const match = text?.match(/^\s*([\d.]+)\s*Gb\/sec/);
  if (!match) return null;
  const gbps = Number(match[1]);
  return Number.isFinite(gbps) ? (gbps * 1e9) / 8 : null;
}

/** `4: ACTIVE` → {id: 4, name: "ACTIVE"}. */
export function parseStateLine(text: string | null): { id: number; name: string } | null {
  const match = text?.match(/^\s*(\d+)\s*:\s*(.*)$/);
  if (!match) return null;
  return { id: Number(match[1]), name: (match[2] ?? '').trim() };
}

/** sysfs `node_guid` (`f452:1403:007b:cba0`, sometimes followed by stray text) → `0xf4521403007bcba0`. */
export function parseNodeGuid(text: string | null): string | null {
  const match = text?.match(/^\s*([0-9a-fA-F]{4}):([0-9a-fA-F]{4}):([0-9a-fA-F]{4}):([0-9a-fA-F]{4})/);
  if (!match) return null;
  return `0x${match.slice(1, 5).join('').toLowerCase()}`;
}

interface CounterSpec {
  metric: string;
  help: string;
  /** Data counters count 4-octet words. */
  multiplier?: number;
}

const N = 'node_infiniband_';

/** `counters/` files → node_exporter's names (collector/infiniband_linux.go), data in bytes. */
const COUNTERS: Record<string, CounterSpec> = {
  excessive_buffer_overrun_errors: {
    metric: `${N}excessive_buffer_overrun_errors_total`,
    help: 'Number of times that OverrunErrors consecutive flow control update periods occurred',
  },
  link_downed: {
    metric: `${N}link_downed_total`,
    help: 'Number of times the link failed to recover from an error state and went down',
  },
  link_error_recovery: {
    metric: `${N}link_error_recovery_total`,
    help: 'Number of times the link successfully recovered from an error state',
  },
  local_link_integrity_errors: {
    metric: `${N}local_link_integrity_errors_total`,
    help: 'Number of times that the count of local physical errors exceeded the threshold',
  },
  multicast_rcv_packets: {
    metric: `${N}multicast_packets_received_total`,
    help: 'Number of multicast packets received (including errors)',
  },
  multicast_xmit_packets: {
    metric: `${N}multicast_packets_transmitted_total`,
    help: 'Number of multicast packets transmitted (including errors)',
  },
  port_rcv_constraint_errors: {
    metric: `${N}port_constraint_errors_received_total`,
    help: 'Number of packets received on the switch physical port that are discarded',
  },
  port_xmit_constraint_errors: {
    metric: `${N}port_constraint_errors_transmitted_total`,
    help: 'Number of packets not transmitted from the switch physical port',
  },
  port_rcv_data: {
    metric: `${N}port_data_received_bytes_total`,
    help: 'Number of data octets received on all links',
    multiplier: 4,
  },
  port_xmit_data: {
    metric: `${N}port_data_transmitted_bytes_total`,
    help: 'Number of data octets transmitted on all links',
    multiplier: 4,
  },
  port_rcv_discards: {
    metric: `${N}port_discards_received_total`,
    help: 'Number of inbound packets discarded by the port because the port is down or congested',
  },
  port_xmit_discards: {
    metric: `${N}port_discards_transmitted_total`,
    help: 'Number of outbound packets discarded by the port because the port is down or congested',
  },
  port_rcv_errors: {
    metric: `${N}port_errors_received_total`,
    help: 'Number of packets containing an error that were received on this port',
  },
  port_rcv_packets: {
    metric: `${N}port_packets_received_total`,
    help: 'Number of packets received on all VLs by this port (including errors)',
  },
  port_xmit_packets: {
    metric: `${N}port_packets_transmitted_total`,
    help: 'Number of packets transmitted on all VLs from this port (including errors)',
  },
  port_xmit_wait: {
    metric: `${N}port_transmit_wait_total`,
    help: 'Number of ticks during which the port had data to transmit but no data was sent during the entire tick',
  },
  port_rcv_remote_physical_errors: {
    metric: `${N}port_receive_remote_physical_errors_total`,
    help: 'Number of packets marked with the EBP delimiter received on the port',
  },
  port_rcv_switch_relay_errors: {
    metric: `${N}port_receive_switch_relay_errors_total`,
    help: 'Number of packets that could not be forwarded by the switch',
  },
  symbol_error: {
    metric: `${N}symbol_error_total`,
    help: 'Number of minor link errors detected on one or more physical lanes',
  },
  unicast_rcv_packets: {
    metric: `${N}unicast_packets_received_total`,
    help: 'Number of unicast packets received (including errors)',
  },
  unicast_xmit_packets: {
    metric: `${N}unicast_packets_transmitted_total`,
    help: 'Number of unicast packets transmitted (including errors)',
  },
  VL15_dropped: { metric: `${N}vl15_dropped_total`, help: 'Number of incoming VL15 packets dropped' },
};

/**
 * `counters_ext/` (kernels before 4.5) → node_exporter's `legacy_*` names, never standing in for
 * `counters/`: drivers disagree on which is right, so both stay visible (see the README).
 */
const COUNTERS_EXT: Record<string, CounterSpec> = {
  port_xmit_data_64: {
    metric: `${N}legacy_data_transmitted_bytes_total`,
    help: 'Number of data octets transmitted on all links',
    multiplier: 4,
  },
  port_rcv_data_64: {
    metric: `${N}legacy_data_received_bytes_total`,
    help: 'Number of data octets received on all links',
    multiplier: 4,
  },
  port_xmit_packets_64: {
    metric: `${N}legacy_packets_transmitted_total`,
    help: 'Number of data packets transmitted on all links',
  },
  port_rcv_packets_64: {
    metric: `${N}legacy_packets_received_total`,
    help: 'Number of data packets received on all links',
  },
  port_unicast_xmit_packets: {
    metric: `${N}legacy_unicast_packets_transmitted_total`,
    help: 'Number of unicast packets transmitted',
  },
  port_unicast_rcv_packets: {
    metric: `${N}legacy_unicast_packets_received_total`,
    help: 'Number of unicast packets received',
  },
  port_multicast_xmit_packets: {
    metric: `${N}legacy_multicast_packets_transmitted_total`,
    help: 'Number of multicast packets transmitted',
  },
  port_multicast_rcv_packets: {
    metric: `${N}legacy_multicast_packets_received_total`,
    help: 'Number of multicast packets received',
  },
};

/** hw_counters entries that are settings or gauges, not counters. */
const HW_NOT_COUNTERS = new Set(['lifespan']);

export interface DeviceFilter {
  include?: RegExp | undefined;
  exclude?: RegExp | undefined;
}

export function deviceSelected(name: string, { include, exclude }: DeviceFilter): boolean {
  return (!include || include.test(name)) && !exclude?.test(name);
}

/** Every InfiniBand/Omni-Path device under `class/infiniband`, read now. */
export function collectInfiniband(reader: TreeReader, out: ExpositionWriter, filter: DeviceFilter): void {
  const base = 'class/infiniband';
  for (const device of reader.directories(base)) {
    if (!deviceSelected(device, filter)) continue;
    const dir = `${base}/${device}`;
    const boardId = reader.text(`${dir}/board_id`);
    const fwVer = reader.text(`${dir}/fw_ver`);
    const hcaType = reader.text(`${dir}/hca_type`);
    out.gauge(
      `${N}info`,
      'Non-numeric data from /sys/class/infiniband/<device>, value is always 1.',
      { board_id: boardId ?? '', device, firmware_version: fwVer ?? '', hca_type: hcaType ?? '' },
      1,
    );
    const guid = parseNodeGuid(reader.text(`${dir}/node_guid`));
    const desc = reader.text(`${dir}/node_desc`);
    out.gauge(
      'fabscope_infiniband_node_info',
      'Node GUID and node description of the device (joins host ports to the fabric topology), always 1.',
      { device, node_guid: guid ?? '', node_desc: desc ?? '' },
      1,
    );
    for (const port of reader.directories(`${dir}/ports`)) {
      if (!/^\d+$/.test(port)) continue;
      collectPort(reader, out, device, port, `${dir}/ports/${port}`);
    }
  }
}

function collectPort(
  reader: TreeReader,
  out: ExpositionWriter,
  device: string,
  port: string,
  dir: string,
): void {
  const labels = { device, port };
  const state = parseStateLine(reader.text(`${dir}/state`));
  const phys = parseStateLine(reader.text(`${dir}/phys_state`));
  const rate = parseRate(reader.text(`${dir}/rate`));
  const linkLayer = reader.text(`${dir}/link_layer`);
  if (state) {
    out.gauge(
      `${N}state_id`,
      'State of the InfiniBand port (0: no change, 1: down, 2: init, 3: armed, 4: active, 5: act defer)',
      labels,
      state.id,
    );
  }
  if (phys) {
    out.gauge(
      `${N}physical_state_id`,
      'Physical state of the InfiniBand port (0: no change, 1: sleep, 2: polling, 3: disable, 4: shift, 5: link up, 6: link error recover, 7: phytest)',
      labels,
      phys.id,
    );
  }
  if (rate !== null) out.gauge(`${N}rate_bytes_per_second`, 'Maximum signal transfer rate', labels, rate);
  out.gauge(
    'fabscope_infiniband_port_info',
    'Link layer and textual states of the port, always 1.',
    { device, port, link_layer: linkLayer ?? '', state: state?.name ?? '', physical_state: phys?.name ?? '' },
    1,
  );

  for (const [subdir, specs] of [
    ['counters', COUNTERS],
    ['counters_ext', COUNTERS_EXT],
  ] as const) {
    for (const file of reader.list(`${dir}/${subdir}`)) {
      const spec = specs[file];
      if (!spec) continue;
      const value = parseCounter(reader.text(`${dir}/${subdir}/${file}`), spec.multiplier);
      if (value !== null) out.counter(spec.metric, spec.help, labels, value);
    }
  }
  for (const file of reader.list(`${dir}/hw_counters`)) {
    if (HW_NOT_COUNTERS.has(file)) continue;
    const value = parseCounter(reader.text(`${dir}/hw_counters/${file}`));
    if (value === null) continue;
    out.counter(
      'fabscope_infiniband_hw_counter_total',
      'Driver-specific hardware counter from hw_counters/, named by the counter label',
      { device, port, counter: file },
      value,
    );
  }
}
