/**
 * The fabric collector's rates at the edge the API reads (docs/metrics.md "Rates at the edge";
 * packages/collectors edge-exposition.ts writes them, apps/cli/test checks the names agree): per
 * sweep, stamped with its read time, one series per link direction keyed by its sending port, per
 * port its error fields (sparse), per collector the summary of the directions it counts.
 */
export const EDGE_SERIES = {
  directionBytes: 'fabscope_link_data_bytes_per_second',
  directionPackets: 'fabscope_link_packets_per_second',
  directionWait: 'fabscope_link_transmit_wait_ratio',
  directionUtilization: 'fabscope_link_utilization_ratio',
  portErrors: 'fabscope_port_error_detail',
  portResets: 'fabscope_port_counter_resets_total',
  hostBytes: 'fabscope_fabric_host_data_bytes_per_second',
  buckets: 'fabscope_fabric_link_directions',
  sweep: 'fabscope_fabric_sweep_interval_seconds',
  errorFields: 'fabscope_fabric_error_fields_reported',
} as const;

export const LINK_UP = 'fabscope_port_link_up';

/** Cabled ports only: the collector sets `remote_node_type` on those (docs/metrics.md). */
export const CABLED = 'remote_node_type!=""';
