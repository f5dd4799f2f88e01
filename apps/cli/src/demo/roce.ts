import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiConfig, RunningApi } from '@fabscope/api';
import { parseSnmpTargets } from '@fabscope/collectors';
import { createEmulator, recordingTargets, startEmulatorServer, startSnmpRecorder } from '@fabscope/emulator';
import { startSnmpsimAgent } from '@fabscope/lab';
import { buildScenario, type Fabric, fatTreeRouting } from '@fabscope/topology';
import { startPieces } from '../pieces.ts';
import { serveSnmp } from '../serve-snmp.ts';

export interface RoceDemoOptions {
  config: ApiConfig;
  /** The Ethernet fabric emulated; default the `roce-leafspine` scenario. */
  design?: Fabric;
  collectorPort?: number;
}

export interface RunningRoceDemo {
  fabricName: string;
  apiUrl: string;
  emulatorUrl: string;
  collectorUrl: string;
  /** Where snmpsimd answers, a community per switch (its name). */
  snmpAddress: string;
  recordingsDir: string;
  api: RunningApi;
  /** The fabric as LLDP found it. */
  fabric: Fabric;
  stop(): Promise<void>;
}

/**
 * `demo --fabric roce` (`npm run demo:roce`): the emulator's Ethernet leaf–spine as simulated switches (its
 * snmpsim recordings, rewritten as its traffic changes), discovered by LLDP and swept by SNMP as `serve` reads
 * real switches; traffic started from the dashboard runs in the emulator.
 */
export async function startRoceDemo(options: RoceDemoOptions): Promise<RunningRoceDemo> {
  const design = options.design ?? buildScenario('roce-leafspine');
  if (design.fabricType !== 'ethernet')
    throw new Error(`demo:roce needs an Ethernet fabric, not ${design.fabricType}`);
  return startPieces(async (stops, stop) => {
    const dir = mkdtempSync(join(tmpdir(), 'fabscope-roce-'));
    stops.push(() => rmSync(dir, { recursive: true, force: true }));
    // snmpsimd run as root drops to nobody, who must reach the recordings.
    chmodSync(dir, 0o755);
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    const emulator = createEmulator({
      fabric: design,
      tables: fatTreeRouting(design),
      startTimeMs: Date.now(),
    });
    // One clock, the wall clock, drives the emulator; the recordings' counters follow the same clock.
    const emulatorServer = await startEmulatorServer(emulator, {
      host: '127.0.0.1',
      fromDateNow: true,
      port: 0,
      clock: () => Date.now(),
    });
    stops.push(() => emulatorServer.close());
    let restart: () => void = () => undefined;
    const recorder = startSnmpRecorder(emulator, { dir: dataDir, onRewrite: () => restart() });
    stops.push(() => recorder.stop());
    const firstSwitch = design.nodes.find((n) => n.type === 'switch')?.name;
    if (!firstSwitch) throw new Error(`${design.name} has no switch to record`);
    const agent = await startSnmpsimAgent({ dataDir, cacheDir: join(dir, 'cache'), probe: firstSwitch });
    stops.push(() => agent.stop());
    restart = () => {
      agent
        .restart()
        .catch((error: Error) => process.stderr.write(`fabscope demo: snmpsimd: ${error.message}\n`));
    };
    const snmpAddress = `127.0.0.1:${agent.port}`;
    const running = await serveSnmp(
      {
        ...options.config,
        emulatorUrl: emulatorServer.url,
        prometheusUrl: undefined,
        // snmpsimd answers every switch on one Python thread: a sweep of the leaf–spine takes seconds.
        sampleIntervalMs: options.config.sampleIntervalMs ?? 10_000,
      },
      {
        targets: parseSnmpTargets(recordingTargets(design, snmpAddress)),
        timeoutMs: 5000,
        concurrency: 2,
        ...(options.collectorPort === undefined ? {} : { collectorPort: options.collectorPort }),
      },
    );
    stops.push(() => running.stop());
    return {
      fabricName: design.name,
      apiUrl: running.api.url,
      emulatorUrl: emulatorServer.url,
      collectorUrl: running.collector.url,
      snmpAddress,
      recordingsDir: dataDir,
      api: running.api,
      fabric: running.fabric,
      stop,
    };
  });
}
