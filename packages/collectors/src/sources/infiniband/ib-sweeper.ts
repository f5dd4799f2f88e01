import { PORT_INFO_EVERY_DEFAULT } from './ib-port-info-cache.ts';
import { LidKnowledge, PortKnowledge, type SweepTargets, sweepTargets } from './ib-sweep-targets.ts';
import {
  type MadChannel,
  madChannel,
  type SweepClock,
  type SweepSettings,
  SweepWindow,
  systemSweepClock,
} from './ib-sweep-window.ts';
import type { UmadPort } from './ib-umad.ts';

/** The job kinds' MADs by name, in KIND_* order (ib-sweep-jobs.ts). */
const KIND_NAMES = [
  'PortCountersExtended',
  'PortCounters',
  'PortInfo',
  'PortInfo of port 0',
  'MlnxExtendedPortInfo',
  'ClassPortInfo',
  'PortSamplesControl',
  'PortCounters Set',
] as const;

export type { SweepSettings } from './ib-sweep-window.ts';

export interface SweepOutcome {
  /** RECORD_SIZE bytes per target, in target order (ib-port-record.ts). */
  records: Buffer;
  /** Wall-clock midpoint of the sweep (each port's own reading instant is in its record). */
  readAtMs: number;
  durationSeconds: number;
  madsSent: number;
  /** MADs sent by attribute (retries included), for measuring what a sweep costs. */
  madsByAttribute: Record<string, number>;
  retries: number;
  /** Targets with at least one attribute not read. */
  failures: number;
}

/**
 * Reads PortCountersExtended of every target, PortCounters where the PMA has no 64-bit errors and XmitWait in it,
 * PortInfo when it can have changed
 * (PortInfoCache) and PortSamplesControl once per port;
 * synchronous (the reader's child).
 */
export class IbSweeper {
  readonly #channel: MadChannel;
  #targets: SweepTargets = sweepTargets(new Uint16Array(0), new Uint8Array(0));
  #known: LidKnowledge = new LidKnowledge(0);
  #portsKnown: PortKnowledge = new PortKnowledge(0);

  /** `clock`: a new SweepClock per sweep (tests give their own). */
  constructor(
    port: UmadPort,
    private readonly clock: () => SweepClock = systemSweepClock,
  ) {
    this.#channel = madChannel(port);
  }

  /**
   * The ports to read from now on (switch: its LID and the port; CA: the port's LID and number), and which
   * are a switch's (1): their PortSamplesControl is read.
   */
  setTargets(lids: Uint16Array, ports: Uint8Array, switches: Uint8Array = new Uint8Array(lids.length)): void {
    this.#targets = sweepTargets(lids, ports, switches);
    this.#known = new LidKnowledge(this.#targets.lidList.length);
    this.#portsKnown = new PortKnowledge(lids.length);
  }

  sweep(settings: SweepSettings): SweepOutcome {
    const clock = this.clock();
    const started = clock.now();
    this.#known.beginSweep();
    this.#portsKnown.info.beginSweep(settings.portInfoEvery ?? PORT_INFO_EVERY_DEFAULT);
    const window = new SweepWindow(
      this.#channel,
      this.#targets,
      this.#known,
      this.#portsKnown,
      settings,
      clock,
    );
    window.run();
    const failures = this.#known.stamp(window.records, this.#targets.lidOfTarget, this.#portsKnown);
    // After stamp (it marks 64-bit errors); it only adds a failure to a port that has one.
    this.#portsKnown.info.settle(window.records);
    const durationMs = clock.now() - started;
    return {
      records: window.records,
      readAtMs: clock.epochOffsetMs + started + durationMs / 2,
      durationSeconds: durationMs / 1000,
      madsSent: window.madsSent,
      madsByAttribute: Object.fromEntries(
        KIND_NAMES.map((name, k) => [name, window.madsByKind[k] as number]),
      ),
      retries: window.retries,
      failures,
    };
  }

  close(): void {
    this.#channel.port.close();
  }
}
