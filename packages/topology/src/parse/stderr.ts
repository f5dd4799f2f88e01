/** Lines the InfiniBand diagnostics print on stderr (`ibwarn: …`, `iberror: …`), anywhere in captured output. */
export const STDERR_LINE =
  /^(ibwarn|iberror|ibnetdiscover|ibroute|perfquery|ibdiag\w*|dump_\w+|opapmaquery|src\/[\w./-]+|[\w-]+\.c:\d+)[:;\s]/i;
