import type { ChildProcess } from 'node:child_process';

/** How to stop one piece that was started. */
type Stop = () => unknown;

/** Runs `start`, which pushes a stop for each piece it starts; `stopAll` runs them last first, failures
 * ignored, as does a start that throws before it rethrows. */
export async function startPieces<T>(
  start: (stops: Stop[], stopAll: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const stops: Stop[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse())
      await Promise.resolve()
        .then(stop)
        .catch(() => undefined);
  };
  try {
    return await start(stops, stopAll);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Ends `child`: SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves once it has exited. */
export async function endChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
