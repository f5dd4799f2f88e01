import { join } from 'node:path';
import { CHECKOUT_ROOT } from './checkout.ts';

/**
 * The InfiniBand port reader's child (collectors' ib-port-reader-child.ts) as the CLI runs it: a
 * hidden subcommand of its own binary, so it loads from the compiled cache like every command.
 */
export function ibPortReaderCommand(): string[] {
  return [process.execPath, join(CHECKOUT_ROOT, 'apps/cli/bin/fabscope.js'), '__ib-port-reader'];
}
