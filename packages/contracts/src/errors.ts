// The names the API reports a port's error counters under (a link direction's `errors`), and the
// Prometheus family each is read from.

/**
 * The error, congestion and bubble counters the fabric collector exposes (docs/metrics.md), by
 * the name the API reports them under; the same names as the collectors' ERROR_COUNTERS table.
 */
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
export type ErrorField = ErrorCounterField | PortGaugeField;
export const ERROR_FIELDS = [...Object.keys(ERROR_COUNTERS), ...Object.keys(PORT_GAUGES)] as ErrorField[];
export type ErrorRates = Partial<Record<ErrorField, number>>;
