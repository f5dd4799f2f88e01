import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root, found by walking up: the module also runs from the compiled cache, one level deeper. */
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
