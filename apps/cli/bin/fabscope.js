#!/usr/bin/env node
// The sources are TypeScript run through tsx, so a clone works without a compile step. Help is
// plain JavaScript and printed before the loader starts: it is most of a quick command's start-up.
const [command] = process.argv.slice(2);
if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
  const { USAGE } = await import('../src/usage.js');
  process.stdout.write(USAGE);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
