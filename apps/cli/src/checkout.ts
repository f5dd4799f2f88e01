import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root: the nearest directory above this module that holds `deploy/prometheus`.
 * Found by walking up rather than by a fixed `../../..`, because the same module also runs from the
 * CLI's compiled cache (bin/compiled.js), one directory deeper than `src/`.
 */
function checkoutRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'deploy', 'prometheus'))) return dir;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`fabscope: no deploy/prometheus above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export const CHECKOUT_ROOT = checkoutRoot();
