import { readFileSync, statSync } from 'node:fs';
import { type ApiConfig, type RunningApi, startApi } from '@fabscope/api';
import {
  createFabricRegistry,
  type FabricSource,
  infinibandSource,
  runTool,
  startMetricsServer,
} from '@fabscope/collectors';
import { createEmulator, startEmulatorServer } from '@fabscope/emulator';
import { ibsimNetFile, type Lab, type SmRoutingEngine, startLab } from '@fabscope/lab';
import {
  applyIbroute,
  buildForwardingTables,
  type Fabric,
  type ForwardingTables,
  parsePortsReport,
} from '@fabscope/topology';
import { fabricFromConfig } from '../commands/topology.ts';
import { ibPortReaderCommand } from '../ib-port-reader-command.ts';
import { startPieces } from '../pieces.ts';
import { WEB_ROOT } from './demo.ts';
import { startLabPump } from './lab-pump.ts';

export interface IbsimDemoOptions {
  config: ApiConfig;
  routing: SmRoutingEngine;
  /** How often the emulator's counters are written into the subnet besides before each sweep (ms). */
  pumpIntervalMs?: number;
  /** The subnet to build, instead of the config's scenario or topology file. */
  design?: Fabric;
}

export interface RunningIbsimDemo {
  fabricName: string;
  apiUrl: string;
  emulatorUrl: string;
  collectorUrl: string;
  lab: Lab;
  api: RunningApi;
  /** The fabric as discovery read it (names are the NodeDescriptions). */
  fabric: Fabric;
  /** Runs `read` between two writes of the emulator's counters, with the emulator time they stand for. */
  readSubnet<T>(read: () => Promise<T>): Promise<{ value: T; atMs: number }>;
  stop(): Promise<void>;
}

/** The subnet manager's tables from OpenSM's LFT dump, on the discovered fabric. */
function smTables(fabric: Fabric, dump: string): ForwardingTables {
  return applyIbroute(fabric, buildForwardingTables(fabric, 'minhop'), dump);
}

/** `demo --fabric ibsim`: a real subnet (ibsim + OpenSM) read by its tools, its traffic the emulator's (lab-pump.ts). */
export async function startIbsimDemo(options: IbsimDemoOptions): Promise<RunningIbsimDemo> {
  const design = options.design ?? fabricFromConfig(options.config).fabric;
  return startPieces(async (stops, stop) => {
    const lab = await startLab({ net: ibsimNetFile(design), routing: options.routing });
    stops.push(() => lab.stop());
    const fabric = parsePortsReport(
      await runTool('ibnetdiscover', ['-p'], { timeoutMs: 30_000, env: lab.env, cwd: lab.cwd }),
      design.name,
    );
    let dumpSeen = statSync(lab.lftsDumpPath).mtimeMs;
    const tables = smTables(fabric, await lab.waitForLfts());

    const emulator = createEmulator({
      fabric,
      tables,
      externalRouting: true,
      seed: 1,
      startTimeMs: Date.now(),
    });
    // One clock, the wall clock, drives the emulator (lab-pump.ts writes what it counted by then).
    const emulatorServer = await startEmulatorServer(emulator, {
      host: '127.0.0.1',
      fromDateNow: true,
      port: 0,
      clock: () => Date.now(),
    });
    stops.push(() => emulatorServer.close());

    // When OpenSM re-routes (a cable pulled or plugged), the traffic follows its new tables.
    const watch = setInterval(() => {
      try {
        const mtime = statSync(lab.lftsDumpPath).mtimeMs;
        if (mtime === dumpSeen) return;
        const text = readFileSync(lab.lftsDumpPath, 'utf8');
        if (!/lids dumped\s*$/.test(text)) return; // OpenSM is still writing it
        dumpSeen = mtime;
        emulator.useTables(smTables(fabric, text));
      } catch {
        // a dump being rewritten: read it at the next turn
      }
    }, 250);
    stops.push(() => clearInterval(watch));

    const pump = startLabPump(emulator, lab, options.pumpIntervalMs ?? 100);
    stops.push(() => pump.stop());
    const reader = infinibandSource({
      fabric: design.name,
      env: lab.env,
      cwd: lab.cwd,
      madReader: { command: ibPortReaderCommand() },
      // ibsim's PMA has no 64-bit XmitWait: with resets on, its wait stays known as on a site whose SM clears.
      resetCounters: options.config.ibResetCounters ?? false,
      onCleared: (port, counters) => pump.countersCleared(port.nodeName, port.port, counters),
    });
    stops.push(() => reader.close());
    // The subnet's counters as of the sweep, stamped with the emulator time they stand for.
    const source: FabricSource = {
      name: reader.name,
      async read(signal) {
        const { value, atMs } = await pump.readAtFlush(() => reader.read(signal));
        // Every port's counters stand for the write's instant, whenever the MAD that read them ran.
        const ports = value.ports.map(({ countersReadAtMs: _answeredAt, ...p }) => p);
        return { ...value, ports, countersReadAtMs: Math.round(atMs) };
      },
    };
    const { answer } = createFabricRegistry({ source });
    const collector = await startMetricsServer(answer, { host: '127.0.0.1', port: 0 });
    stops.push(() => collector.close());

    const config: ApiConfig = {
      ...options.config,
      fabricSource: 'infiniband',
      emulatorUrl: emulatorServer.url,
      collectorUrls: [collector.url],
      prometheusUrl: undefined,
      sampleIntervalMs: options.config.sampleIntervalMs ?? 1000,
      lfts: { kind: 'file', path: lab.lftsDumpPath, intervalMs: 500 },
    };
    const api = await startApi(config, fabric, {
      tables,
      webRoot: WEB_ROOT,
      tools: { env: { ...process.env, ...lab.env }, cwd: lab.cwd },
    });
    stops.push(() => api.close());
    return {
      fabricName: design.name,
      apiUrl: api.url,
      emulatorUrl: emulatorServer.url,
      collectorUrl: collector.url,
      lab,
      api,
      fabric,
      readSubnet: (read) => pump.readAtFlush(read),
      stop,
    };
  });
}
