import { readIbPortName } from '@fabscope/contracts/names';
import { READER_PORT_ENV } from './ib-local-ports.ts';
import { IbSweeper, type SweepOutcome, type SweepSettings } from './ib-sweeper.ts';
import { openUmadPort } from './ib-umad.ts';

/** Parent → child. Typed arrays travel as bytes (the channel uses `serialization: 'advanced'`). */
export type ToChild =
  | { type: 'targets'; lids: Uint16Array; ports: Uint8Array; switches: Uint8Array }
  | { type: 'sweep'; id: number; settings: SweepSettings }
  | { type: 'close' };

/** Child → parent. */
export type FromChild =
  | { type: 'ready' }
  | { type: 'error'; message: string }
  | ({ type: 'result'; id: number; records: Uint8Array } & Omit<SweepOutcome, 'records'>);

/** The port reader's child: answers the parent's sweeps one at a time (a sweep blocks its event loop). */
export function runIbPortReaderChild(): void {
  const send = process.send?.bind(process);
  if (!send) {
    throw new Error(
      'the InfiniBand port reader child talks to its parent over an IPC channel: start it with openIbPortReader',
    );
  }
  let sweeper: IbSweeper;
  try {
    // The parent names the port of the subnet it reads (infinibandSource's `localPort`); else the first.
    const named = process.env[READER_PORT_ENV];
    const port = named ? readIbPortName(named) : undefined;
    if (named && !port) throw new Error(`${READER_PORT_ENV} must name a port like mlx5_0:1, got "${named}"`);
    sweeper = new IbSweeper(openUmadPort(port));
  } catch (error) {
    send(
      { type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies FromChild,
      () => process.disconnect(),
    );
    return;
  }
  const stop = () => {
    sweeper.close();
    // A normal exit: umad2sim's atexit handler removes the sysfs tree it made in the cwd.
    process.exit(0);
  };
  process.on('disconnect', stop);
  process.on('message', (message: ToChild) => {
    switch (message.type) {
      case 'targets':
        sweeper.setTargets(message.lids, message.ports, message.switches);
        break;
      case 'sweep': {
        const outcome = sweeper.sweep(message.settings);
        // The parent may have gone while the sweep ran: then 'disconnect' ends this process.
        if (!process.connected) break;
        send({ type: 'result', id: message.id, ...outcome } satisfies FromChild);
        break;
      }
      case 'close':
        stop();
        break;
    }
  });
  send({ type: 'ready' } satisfies FromChild);
}
