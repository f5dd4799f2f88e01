/** A host pair of the emulator's `pairs` pattern: the sender, then the receiver. */
export type HostPair = readonly [string, string];

/**
 * Starts `pairs` through a running demo's API (POST /api/v1/traffic, pattern `pairs`), as the job `job` when given;
 * throws with the API's answer when it is refused.
 */
export async function startTrafficPairs(
  apiUrl: string,
  pairs: readonly HostPair[],
  job?: string,
): Promise<void> {
  const response = await fetch(`${apiUrl}/api/v1/traffic`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pattern: 'pairs', pairs, ...(job === undefined ? {} : { job }) }),
  });
  if (response.status !== 200)
    throw new Error(`POST /api/v1/traffic answered ${response.status}: ${await response.text()}`);
}
