// Media types more than one process writes or asks for.

/** An Apache Arrow IPC stream: the emulator's `/v1/ports?format=arrow`, the collector's port families. */
export const ARROW_STREAM_MEDIA_TYPE = 'application/vnd.apache.arrow.stream';

/** Prometheus' text exposition format, the form every exporter answers. */
export const EXPOSITION_MEDIA_TYPE = 'text/plain; version=0.0.4';
