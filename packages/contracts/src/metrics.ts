// The Prometheus families the fabric collector writes and the API's stores read (docs/metrics.md).

/** Data, packets and XmitWait: the counters every port has, by the field the API reads each into. */
export const PORT_COUNTER_FAMILIES = {
  transmitBytes: 'fabscope_port_data_transmitted_bytes_total',
  receiveBytes: 'fabscope_port_data_received_bytes_total',
  transmitPackets: 'fabscope_port_packets_transmitted_total',
  receivePackets: 'fabscope_port_packets_received_total',
  transmitWait: 'fabscope_port_transmit_wait_total',
} as const;

/** The collector's other per-port families. */
export const PORT_SERIES = {
  /** Always 1: the port's names and far end, joined where a human reads them. */
  info: 'fabscope_port_info',
  /** The receive counter keyed by the direction it measures (its sender's port). */
  linkReceiveBytes: 'fabscope_link_data_received_bytes_total',
  waitTickSeconds: 'fabscope_port_transmit_wait_tick_seconds',
  rateBytesPerSecond: 'fabscope_port_rate_bytes_per_second',
  /** 1 when the port's link is active, 0 when down. */
  linkUp: 'fabscope_port_link_up',
  /** IBA PortInfo:PortPhysicalState 1..7 (5 LinkUp), where the source reads it; no series where it does not. */
  physicalState: 'fabscope_port_physical_state',
} as const;

/** The error, congestion and bubble counters, by the name the API reports them under. */
export const ERROR_COUNTERS = {
  symbolErrors: 'fabscope_port_symbol_error_total',
  linkErrorRecovery: 'fabscope_port_link_error_recovery_total',
  linkDowned: 'fabscope_port_link_downed_total',
  receiveErrors: 'fabscope_port_errors_received_total',
  transmitDiscards: 'fabscope_port_discards_transmitted_total',
  receiveRemotePhysicalErrors: 'fabscope_port_remote_physical_errors_received_total',
  receiveSwitchRelayErrors: 'fabscope_port_switch_relay_errors_received_total',
  transmitConstraintErrors: 'fabscope_port_constraint_errors_transmitted_total',
  receiveConstraintErrors: 'fabscope_port_constraint_errors_received_total',
  localLinkIntegrityErrors: 'fabscope_port_local_link_integrity_errors_total',
  excessiveBufferOverrunErrors: 'fabscope_port_excessive_buffer_overrun_errors_total',
  vl15Dropped: 'fabscope_port_vl15_dropped_total',
  uncorrectableErrors: 'fabscope_port_uncorrectable_errors_total',
  fmConfigErrors: 'fabscope_port_fm_config_errors_total',
  congestionDiscards: 'fabscope_port_congestion_discards_total',
  receiveFecn: 'fabscope_port_fecn_received_total',
  receiveBecn: 'fabscope_port_becn_received_total',
  markFecn: 'fabscope_port_fecn_marked_total',
  transmitTimeCongestion: 'fabscope_port_transmit_time_congestion_total',
  transmitWastedBandwidth: 'fabscope_port_transmit_wasted_bandwidth_total',
  transmitWaitData: 'fabscope_port_transmit_wait_data_total',
  receiveBubble: 'fabscope_port_receive_bubble_total',
} as const;

/** Gauges read as their latest value rather than as a rate. */
export const PORT_GAUGES = {
  linkQualityIndicator: 'fabscope_port_link_quality_indicator',
  linkWidthDowngradeLanes: 'fabscope_port_link_width_downgrade_lanes',
} as const;

export type ErrorCounterField = keyof typeof ERROR_COUNTERS;
export type PortGaugeField = keyof typeof PORT_GAUGES;
/** A name of a link direction's `errors`: an error counter or a gauge. */
export type ErrorField = ErrorCounterField | PortGaugeField;
/** The names of a link direction's `errors`, the counters first. */
export const ERROR_FIELDS = [...Object.keys(ERROR_COUNTERS), ...Object.keys(PORT_GAUGES)] as ErrorField[];
export type ErrorRates = Partial<Record<ErrorField, number>>;

/** The collector's rates at the edge (docs/metrics.md, "Rates at the edge"). */
export const EDGE_SERIES = {
  bytes: 'fabscope_link_data_bytes_per_second',
  packets: 'fabscope_link_packets_per_second',
  wait: 'fabscope_link_transmit_wait_ratio',
  utilization: 'fabscope_link_utilization_ratio',
  errors: 'fabscope_link_errors_per_second',
  categories: 'fabscope_link_pm_category_ratio',
  portErrors: 'fabscope_port_error_detail',
  resets: 'fabscope_port_counter_resets_total',
  /** Per port and `field`: Unix seconds since the counter has stood at the maximum of its width (unknown). */
  saturated: 'fabscope_port_counter_saturated_since_seconds',
  hostBytes: 'fabscope_fabric_host_data_bytes_per_second',
  directions: 'fabscope_fabric_link_directions',
  sweep: 'fabscope_fabric_sweep_interval_seconds',
  errorFields: 'fabscope_fabric_error_fields_reported',
} as const;

/** The fabric collector's health of its source. */
export const SOURCE_SERIES = {
  up: 'fabscope_fabric_source_up',
  readDuration: 'fabscope_fabric_source_read_duration_seconds',
  errors: 'fabscope_fabric_source_errors_total',
} as const;

/**
 * RoCE host counters (docs/metrics.md, "RoCE on hosts"): RDMA hw_counters under one name whatever the driver
 * calls them, labelled `device`, `port`.
 */
export const ROCE_COUNTERS = {
  cnpSent: 'fabscope_roce_cnp_sent_total',
  cnpHandled: 'fabscope_roce_cnp_handled_total',
  cnpIgnored: 'fabscope_roce_cnp_ignored_total',
  ecnMarkedReceived: 'fabscope_roce_ecn_marked_packets_received_total',
  outOfBuffer: 'fabscope_roce_out_of_buffer_drops_total',
  outOfSequence: 'fabscope_roce_out_of_sequence_total',
  packetSequenceErrors: 'fabscope_roce_packet_sequence_errors_total',
  localAckTimeouts: 'fabscope_roce_local_ack_timeouts_total',
  rnrNakRetryErrors: 'fabscope_roce_rnr_nak_retry_errors_total',
  impliedNakSequenceErrors: 'fabscope_roce_implied_nak_sequence_errors_total',
  duplicateRequests: 'fabscope_roce_duplicate_requests_total',
  adaptiveRetransmissions: 'fabscope_roce_adaptive_retransmissions_total',
  adaptiveRetransmissionTimeouts: 'fabscope_roce_adaptive_retransmission_timeouts_total',
} as const;
export type RoceCounterField = keyof typeof ROCE_COUNTERS;

/** Per-priority flow control of a RoCE port's netdev, labelled `device`, `port`, `netdev`, `direction`, `priority`. */
export const ROCE_PAUSE_SERIES = {
  /** PFC pause frames received (`direction="rx"`: this port was told to stop) or sent (`"tx"`). */
  frames: 'fabscope_roce_pause_frames_total',
  /** Time paused, from the drivers' microsecond counters. */
  durationSeconds: 'fabscope_roce_pause_duration_seconds_total',
  /** Xoff → Xon transitions. */
  transitions: 'fabscope_roce_pause_transitions_total',
} as const;

/** Always 1: a RoCE counter that could not be read this scrape (`device`, `port`, `counter`, `reason`). */
export const ROCE_UNKNOWN_SERIES = 'fabscope_roce_counter_unknown';

/**
 * The collector's Arrow form (docs/metrics.md): the Float64 column of when each row's port had its
 * counters read (Unix ms), NaN or the column absent where the answer's `countersReadAtMs` stands for it.
 */
export const PORT_ARROW_READ_AT_COLUMN = 'counters_read_at_ms';
