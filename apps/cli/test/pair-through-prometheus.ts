import {
  createFabricRegistry,
  emulatorSource,
  type FabricSource,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { stopAll } from '@fabscope/test-support';
import { buildScenario, fatTreeRouting } from '@fabscope/topology';
import { expect } from 'vitest';
import { type PrometheusServer, startPrometheus } from '../src/prometheus/prometheus.ts';

export interface PairThroughPrometheus {
  emulatorUrl: string;
  prometheus: PrometheusServer;
  /** When the pair started, Unix ms. */
  startedMs: number;
  stop(): Promise<void>;
}

/**
 * ar-demo in a real emulator, its collector reading it through `wrap(source)` (the test stages
 * late or failed reads there), a real Prometheus scraping the collector every second with the
 * shipped rules, and one pair nodeA → nodeC running.
 */
export async function pairThroughPrometheus(
  wrap: (source: FabricSource) => FabricSource,
): Promise<PairThroughPrometheus> {
  const fabric = buildScenario('ar-demo');
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    await stopAll(stops);
  };
  try {
    const emulator = await startEmulatorServer(
      createEmulator({ fabric, tables: fatTreeRouting(fabric), startTimeMs: Date.now() }),
      { tickMs: 20, fromDateNow: true },
    );
    stops.push(() => emulator.close());
    const source = wrap(emulatorSource(emulator.url));
    const collector = await startMetricsServer(createFabricRegistry({ source }).scrapeChunks, {
      host: '127.0.0.1',
    });
    stops.push(() => collector.close());
    const prometheus = await startPrometheus({ targets: [new URL(collector.url).host] });
    stops.push(() => prometheus.stop());
    const started = await fetch(`${emulator.url}/v1/flows`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: 'pairs', pairs: [['nodeA', 'nodeC']] }),
    });
    expect(started.status).toBe(200);
    return { emulatorUrl: emulator.url, prometheus, startedMs: Date.now(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
