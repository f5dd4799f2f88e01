#!/usr/bin/env node
// Help is plain JavaScript, printed before anything else loads. Other commands run from the
// compiled cache (bin/compiled.js: an esbuild bundle of the TypeScript sources, rebuilt when one
// changes), or from the sources through tsx when it cannot be built.
const [command] = process.argv.slice(2);
if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
  const { USAGE } = await import('../src/usage.js');
  process.stdout.write(USAGE);
} else {
  const { compiledEntry } = await import('./compiled.js');
  const entry = await compiledEntry();
  if (entry) {
    // Stack traces name the TypeScript sources (the bundle's linked source maps).
    process.setSourceMapsEnabled(true);
    await import(entry);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../src/main.ts');
  }
}
