import type { RoceCounterField } from '@fabscope/contracts/metrics';

export type PauseKind = 'frames' | 'durationMicroseconds' | 'transitions';
export type PauseDirection = 'rx' | 'tx';

/** One `ethtool -S` name pattern: groups `dir` (rx/tx) unless `direction` is fixed, and `prio` (0–7). */
export interface PausePattern {
  pattern: RegExp;
  kind: PauseKind;
  direction?: PauseDirection;
}

export interface RoceDriver {
  /** The RDMA driver's kernel device names (`mlx5_0`, `bnxt_re0`, `ionic_0`, `irdma0`). */
  devices: RegExp;
  /** RoCE field → its `hw_counters/` file. */
  hwCounters: Partial<Record<RoceCounterField, string>>;
  /** Per-priority pause statistics of the netdev driver under the RDMA device, as `ethtool -S` names them. */
  pause: readonly PausePattern[];
}

/**
 * Every driver's names, in one table. Sources (Linux, torvalds/linux):
 * - mlx5: drivers/infiniband/hw/mlx5/counters.c (`basic_q_cnts`, `out_of_seq_q_cnts`, `retrans_q_cnts`,
 *   `cong_cnts`, `roce_accl_cnts`); drivers/net/ethernet/mellanox/mlx5/core/en_stats.c
 *   (`pport_per_prio_pfc_stats_desc`: `rx_prio%d_pause`, `…_pause_duration` in µs per
 *   Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst, `rx_…_pause_transition`).
 * - bnxt: drivers/infiniband/hw/bnxt_re/hw_counters.c (`bnxt_re_stat_descs`);
 *   drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c (`rx/tx_pfc_ena_frames_pri%d`,
 *   `pfc_pri%d_rx/tx_duration_us`, `pfc_pri%d_rx/tx_transitions`).
 * - ionic: drivers/net/ethernet/pensando/ionic/ionic_stats.c (`rx/tx_pripause_%d_1us_count`; its per-priority
 *   frame counts are not in the kernel driver, only the sum `frames_rx_pripause`).
 * - irdma: drivers/infiniband/hw/irdma/verbs.c (`irdma_hw_stat_descs`, gen2 RoCE: `cnpSent`, `RxECNMrkd`, …);
 *   its netdev ice: drivers/net/ethernet/intel/ice/ice_ethtool.c (`rx/tx_priority_%u_xoff.nic`: pause frames;
 *   the XON frames that end a pause are not counted here).
 */
export const ROCE_DRIVERS = {
  mlx5: {
    devices: /^mlx5_\d+$/,
    hwCounters: {
      cnpSent: 'np_cnp_sent',
      cnpHandled: 'rp_cnp_handled',
      cnpIgnored: 'rp_cnp_ignored',
      ecnMarkedReceived: 'np_ecn_marked_roce_packets',
      outOfBuffer: 'out_of_buffer',
      outOfSequence: 'out_of_sequence',
      packetSequenceErrors: 'packet_seq_err',
      localAckTimeouts: 'local_ack_timeout_err',
      rnrNakRetryErrors: 'rnr_nak_retry_err',
      impliedNakSequenceErrors: 'implied_nak_seq_err',
      duplicateRequests: 'duplicate_request',
      adaptiveRetransmissions: 'roce_adp_retrans',
      adaptiveRetransmissionTimeouts: 'roce_adp_retrans_to',
    },
    pause: [
      { pattern: /^(?<dir>rx|tx)_prio(?<prio>[0-7])_pause$/, kind: 'frames' },
      { pattern: /^(?<dir>rx|tx)_prio(?<prio>[0-7])_pause_duration$/, kind: 'durationMicroseconds' },
      { pattern: /^rx_prio(?<prio>[0-7])_pause_transition$/, kind: 'transitions', direction: 'rx' },
    ],
  },
  bnxt: {
    devices: /^bnxt_re\d+$/,
    hwCounters: {
      outOfBuffer: 'rx_out_of_buffer',
      outOfSequence: 'oos_drop_count',
      packetSequenceErrors: 'seq_err_naks_rcvd',
      localAckTimeouts: 'to_retransmits',
      duplicateRequests: 'dup_req',
    },
    pause: [
      { pattern: /^(?<dir>rx|tx)_pfc_ena_frames_pri(?<prio>[0-7])$/, kind: 'frames' },
      { pattern: /^pfc_pri(?<prio>[0-7])_(?<dir>rx|tx)_duration_us$/, kind: 'durationMicroseconds' },
      { pattern: /^pfc_pri(?<prio>[0-7])_(?<dir>rx|tx)_transitions$/, kind: 'transitions' },
    ],
  },
  ionic: {
    devices: /^ionic_\d+$/,
    hwCounters: {},
    pause: [{ pattern: /^(?<dir>rx|tx)_pripause_(?<prio>[0-7])_1us_count$/, kind: 'durationMicroseconds' }],
  },
  irdma: {
    devices: /^irdma\d+$/,
    hwCounters: {
      cnpSent: 'cnpSent',
      cnpHandled: 'cnpHandled',
      cnpIgnored: 'cnpIgnored',
      ecnMarkedReceived: 'RxECNMrkd',
    },
    pause: [{ pattern: /^(?<dir>rx|tx)_priority_(?<prio>[0-7])_xoff\.nic$/, kind: 'frames' }],
  },
} as const satisfies Record<string, RoceDriver>;

export type RoceDriverName = keyof typeof ROCE_DRIVERS;

/** The driver whose device names match, else the one whose hw_counters names most of `files`; null for none. */
export function roceDriverOf(device: string, files: readonly string[]): RoceDriverName | null {
  const entries = Object.entries(ROCE_DRIVERS) as [RoceDriverName, RoceDriver][];
  const named = entries.find(([, driver]) => driver.devices.test(device));
  if (named) return named[0];
  const present = new Set(files);
  let best: RoceDriverName | null = null;
  let most = 0;
  for (const [name, driver] of entries) {
    const hits = Object.values(driver.hwCounters).filter((file) => present.has(file)).length;
    if (hits > most) {
      best = name;
      most = hits;
    }
  }
  return best;
}

/** A word every pattern in the table holds. */
const PAUSE_WORDS = /pause|pfc|xoff/;

export interface PauseStatistic {
  kind: PauseKind;
  direction: PauseDirection;
  priority: number;
}

/** What an `ethtool -S` name counts, by any driver's pattern (their names do not overlap); null if not pause. */
export function pauseStatistic(name: string): PauseStatistic | null {
  // Most of a NIC's thousands of statistics are per queue; one test spares them every driver's patterns.
  if (!PAUSE_WORDS.test(name)) return null;
  for (const driver of Object.values(ROCE_DRIVERS) as RoceDriver[]) {
    for (const { pattern, kind, direction } of driver.pause) {
      const groups = pattern.exec(name)?.groups;
      if (!groups) continue;
      return {
        kind,
        direction: direction ?? (groups.dir as PauseDirection),
        priority: Number(groups.prio),
      };
    }
  }
  return null;
}
