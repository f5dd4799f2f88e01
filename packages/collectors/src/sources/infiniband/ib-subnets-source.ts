import type { FabricSnapshot, FabricSource } from '../../fabric/port-sample.ts';

/**
 * Several subnets' sources read as one (`collect fabric` watching several local ports): their sweeps run at once,
 * the ports side by side. Each port keeps its own reading instant; the snapshot's stamp, for what has none, is the
 * mean of theirs (they run in parallel, so they differ by the spread of the sweeps' ends). A subnet whose read failed is a failed target, its ports absent; the read
 * fails only when every subnet's does.
 */
export function subnetsSource(
  fabric: string,
  subnets: readonly { name: string; source: FabricSource & { close?(): Promise<void> } }[],
): FabricSource & { close(): Promise<void> } {
  return {
    name: `infiniband:${fabric}`,
    async read(signal): Promise<FabricSnapshot> {
      const started = Date.now();
      const reads = await Promise.allSettled(subnets.map((s) => s.source.read(signal)));
      const done = reads.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const failed = reads.flatMap((r, i) => (r.status === 'rejected' ? [{ i, reason: r.reason }] : []));
      if (done.length === 0) {
        const first = failed[0];
        throw new Error(
          `every subnet's read failed; ${subnets[first?.i ?? 0]?.name}: ${(first?.reason as Error)?.message}`,
        );
      }
      const stamps = done.flatMap((d) => (d.countersReadAtMs === undefined ? [] : [d.countersReadAtMs]));
      const mads = done.flatMap((d) => (d.mads ? [d.mads] : []));
      return {
        fabric,
        fabricType: 'infiniband',
        ports: done.flatMap((d) => d.ports),
        ...(stamps.length === done.length
          ? { countersReadAtMs: Math.round(stamps.reduce((a, b) => a + b, 0) / stamps.length) }
          : {}),
        targets: [
          ...done.flatMap((d) => d.targets ?? []),
          ...failed.map(({ i }) => ({
            target: `subnet ${subnets[i]?.name}`,
            durationSeconds: (Date.now() - started) / 1000,
            outcome: 'error' as const,
          })),
        ],
        ...(mads.length > 0
          ? {
              mads: {
                sent: mads.reduce((a, m) => a + m.sent, 0),
                retries: mads.reduce((a, m) => a + m.retries, 0),
                failedPorts: mads.reduce((a, m) => a + m.failedPorts, 0),
              },
            }
          : {}),
      };
    },
    async close() {
      await Promise.all(subnets.map((s) => s.source.close?.()));
    },
  };
}
