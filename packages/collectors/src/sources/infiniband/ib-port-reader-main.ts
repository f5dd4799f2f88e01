// The port reader's child on its own (`node --import tsx ib-port-reader-main.ts`): the default
// command of openIbPortReader. The CLI runs runIbPortReaderChild under a hidden subcommand instead.
import { runIbPortReaderChild } from './ib-port-reader-child.ts';

runIbPortReaderChild();
