/**
 * Lines the InfiniBand diagnostics print on stderr that end up in captured output, anywhere in
 * it: `ibwarn: [4242] mad_rpc_open_port: …`, `src/query_smp.c:228; umad (DR path slid 0; …)`,
 * `ibnetdiscover: iberror: …`.
 */
export const STDERR_LINE =
  /^(ibwarn|iberror|ibnetdiscover|ibroute|perfquery|ibdiag\w*|dump_\w+|opapmaquery|src\/[\w./-]+|[\w-]+\.c:\d+)[:;\s]/i;
