import { EDGE_SERIES, PORT_SERIES } from '@fabscope/contracts/metrics';

/**
 * The fabric collector's rates at the edge the API reads (docs/metrics.md "Rates at the edge"; the names:
 * @fabscope/contracts/metrics): per sweep, stamped with its read time, one series per link direction keyed by its
 * sending port, per port its error fields (sparse), per collector the summary of the directions it counts.
 */
export { EDGE_SERIES };

export const LINK_UP = PORT_SERIES.linkUp;

/** Cabled ports only: the collector sets `remote_node_type` on those (docs/metrics.md). */
export const CABLED = 'remote_node_type!=""';
