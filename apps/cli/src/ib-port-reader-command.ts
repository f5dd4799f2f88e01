import { join } from 'node:path';
import { CHECKOUT_ROOT } from './checkout.ts';

/** The InfiniBand port reader's child as a hidden subcommand, so it loads from the compiled cache. */
export function ibPortReaderCommand(): string[] {
  return [process.execPath, join(CHECKOUT_ROOT, 'apps/cli/bin/fabscope.js'), '__ib-port-reader'];
}
