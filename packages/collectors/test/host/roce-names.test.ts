import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_ETHTOOL_STATISTICS,
  parseEthtoolStatistics,
  pauseStatistic,
  ROCE_DRIVERS,
  roceDriverOf,
  runEthtool,
} from '../../src/index.ts';

// Names as the kernel prints them: mlx5 en_stats.c, bnxt_ethtool.c, ionic_stats.c, ice_ethtool.c, and the RDMA
// drivers' hw_counters tables (see roce-drivers.ts).
describe('the driver table', () => {
  it('reads mlx5 per-priority pause, duration and transitions, and nothing port-wide', () => {
    expect(pauseStatistic('rx_prio3_pause')).toEqual({ kind: 'frames', direction: 'rx', priority: 3 });
    expect(pauseStatistic('tx_prio0_pause')).toEqual({ kind: 'frames', direction: 'tx', priority: 0 });
    expect(pauseStatistic('rx_prio7_pause_duration')).toEqual({
      kind: 'durationMicroseconds',
      direction: 'rx',
      priority: 7,
    });
    expect(pauseStatistic('tx_prio3_pause_duration')?.direction).toBe('tx');
    expect(pauseStatistic('rx_prio3_pause_transition')).toEqual({
      kind: 'transitions',
      direction: 'rx',
      priority: 3,
    });
    // Not per priority (802.3x pause, MAC control frames), and not names mlx5 prints.
    for (const name of [
      'rx_global_pause',
      'rx_pause_ctrl_phy',
      'tx_prio3_pause_transition',
      'rx_prio8_pause',
    ])
      expect(pauseStatistic(name)).toBeNull();
  });

  it('reads bnxt per-priority PFC frames, durations and transitions', () => {
    expect(pauseStatistic('rx_pfc_ena_frames_pri3')).toEqual({
      kind: 'frames',
      direction: 'rx',
      priority: 3,
    });
    expect(pauseStatistic('tx_pfc_ena_frames_pri5')).toEqual({
      kind: 'frames',
      direction: 'tx',
      priority: 5,
    });
    expect(pauseStatistic('pfc_pri3_tx_duration_us')).toEqual({
      kind: 'durationMicroseconds',
      direction: 'tx',
      priority: 3,
    });
    expect(pauseStatistic('pfc_pri2_rx_transitions')).toEqual({
      kind: 'transitions',
      direction: 'rx',
      priority: 2,
    });
    expect(pauseStatistic('rx_pfc_frames')).toBeNull();
  });

  it('reads ionic per-priority pause time; its all-priority frame sum is not a priority', () => {
    expect(pauseStatistic('rx_pripause_3_1us_count')).toEqual({
      kind: 'durationMicroseconds',
      direction: 'rx',
      priority: 3,
    });
    expect(pauseStatistic('tx_pripause_6_1us_count')?.priority).toBe(6);
    expect(pauseStatistic('frames_rx_pripause')).toBeNull();
    expect(pauseStatistic('rx_pause_1us_count')).toBeNull();
  });

  it('reads irdma CNP and ECN names, and ice per-priority XOFF frames as pause frames', () => {
    expect(ROCE_DRIVERS.irdma.hwCounters).toMatchObject({
      cnpSent: 'cnpSent',
      ecnMarkedReceived: 'RxECNMrkd',
    });
    expect(pauseStatistic('rx_priority_3_xoff.nic')).toEqual({
      kind: 'frames',
      direction: 'rx',
      priority: 3,
    });
    expect(pauseStatistic('tx_priority_4_xoff.nic')).toEqual({
      kind: 'frames',
      direction: 'tx',
      priority: 4,
    });
    expect(pauseStatistic('rx_priority_3_xon.nic')).toBeNull();
    expect(pauseStatistic('rx_priority_3_xoff')).toBeNull();
  });

  it('knows a device by its kernel name, else by its hw_counters names', () => {
    expect(roceDriverOf('mlx5_1', [])).toBe('mlx5');
    expect(roceDriverOf('bnxt_re0', [])).toBe('bnxt');
    expect(roceDriverOf('ionic_0', [])).toBe('ionic');
    expect(roceDriverOf('irdma0', [])).toBe('irdma');
    expect(roceDriverOf('rocep5s0', ['cnpSent', 'RxECNMrkd', 'ip4InOctets'])).toBe('irdma');
    // Devices renamed by udev (rdma-core's NAME_FALLBACK gives rocep<bus>s<slot>f<fn>).
    expect(roceDriverOf('rocep1s0f0', ['lifespan', 'np_cnp_sent', 'out_of_buffer'])).toBe('mlx5');
    expect(roceDriverOf('rocep2s0f1', ['rx_out_of_buffer', 'oos_drop_count', 'dup_req'])).toBe('bnxt');
    expect(roceDriverOf('rxe0', ['sent_pkts'])).toBeNull();
  });

  it('maps each field to one file per driver, and no file twice', () => {
    for (const driver of Object.values(ROCE_DRIVERS)) {
      const files = Object.values(driver.hwCounters);
      expect(new Set(files).size).toBe(files.length);
    }
  });
});

const render = (stats: [string, number][]) =>
  `NIC statistics:\n${stats.map(([name, v]) => `     ${name}: ${v}\n`).join('')}`;

describe('ethtool -S output', () => {
  it('reads every statistic, names with spaces and trailing blanks included', () => {
    const text =
      'NIC statistics:\n     rx_packets: 12\n     tx_pause_storm_warning_events : 3\n' +
      '     rx_prio3_pause: 18446744073709551615\n     rx_packets: 99\n';
    const stats = parseEthtoolStatistics(text);
    expect([...stats]).toEqual([
      ['rx_packets', 12],
      ['tx_pause_storm_warning_events', 3],
      ['rx_prio3_pause', 2 ** 64],
    ]);
  });

  it('refuses garbage, a missing header and an empty output, naming the line', () => {
    expect(() => parseEthtoolStatistics('NIC statistics:\n     rx_packets: 1\n     oops\n')).toThrow(
      /line 3: expected "name: unsigned integer", found "oops"/,
    );
    expect(() => parseEthtoolStatistics('NIC statistics:\n     rx_packets: -1\n')).toThrow(/line 2/);
    expect(() => parseEthtoolStatistics('NIC statistics:\n     rx_packets: 1.5\n')).toThrow(/line 2/);
    expect(() => parseEthtoolStatistics('no stats available\n')).toThrow(
      /line 1: expected "NIC statistics:"/,
    );
    expect(() => parseEthtoolStatistics('')).toThrow(/empty/);
  });

  it('refuses more statistics than any NIC prints', () => {
    const many = Array.from(
      { length: MAX_ETHTOOL_STATISTICS + 1 },
      (_, i) => [`s${i}`, i] as [string, number],
    );
    expect(() => parseEthtoolStatistics(render(many))).toThrow(/more than 100000 statistics/);
  });

  const statsArb = fc.uniqueArray(
    fc.tuple(fc.stringMatching(/^[a-z][a-z0-9_]{0,30}$/), fc.nat({ max: 2 ** 52 })),
    { selector: ([name]) => name, minLength: 1, maxLength: 40 },
  );

  it('reads back what was printed (fast-check)', () => {
    fc.assert(
      fc.property(statsArb, (stats) => {
        expect([...parseEthtoolStatistics(render(stats))]).toEqual(stats);
      }),
    );
  });

  it('never accepts an output cut inside a line, and names that line (fast-check)', () => {
    fc.assert(
      fc.property(statsArb, fc.nat(), (stats, at) => {
        const text = render(stats);
        const cut = 1 + (at % (text.length - 1));
        fc.pre(text[cut - 1] !== '\n');
        const line = text.slice(0, cut).split('\n').length;
        expect(() => parseEthtoolStatistics(text.slice(0, cut))).toThrow(`line ${line}:`);
      }),
    );
  });
});

describe('the real ethtool', () => {
  it('answers a netdev that does not exist with an error naming the command, never a value', async () => {
    // Without ethtool installed the spawn fails (ENOENT); with it, ethtool refuses the device: both reject.
    await expect(runEthtool('fabscope-none0')).rejects.toThrow(/ethtool -S fabscope-none0/);
  });
});
