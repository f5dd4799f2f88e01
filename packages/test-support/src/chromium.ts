/** Debian's chromium, never a downloaded browser (FABSCOPE_CHROMIUM to use another). */
export const CHROMIUM_PATH = process.env.FABSCOPE_CHROMIUM ?? '/usr/bin/chromium';

/** Flags that keep it off the network it cannot reach here, and working as root without a GPU. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
