// The CLI's compiled cache. The sources are TypeScript and a clone runs them without a build step;
// running them through tsx costs ~250 ms of loader start-up and a transform per file on every
// command, which is most of a quick command's time (`npm run bench -- startup`). So the first run
// after a change bundles the CLI's own sources and those of the workspaces it imports with esbuild
// (third-party packages stay external, as installed) into `apps/cli/.compiled/`, and later runs
// import that bundle while every source file it was built from is unchanged.
//
// Plain JavaScript on purpose: it runs before any TypeScript loader exists. The bundle's chunks sit
// at the same depth as `src/`, so a module that finds files relative to `import.meta.url`
// (`../../../deploy/...`) finds the same files from either. Concurrent first runs each build into
// their own directory and publish it by renaming the manifest, the last one winning; a run that
// cannot build (esbuild missing, a syntax error) falls back to the sources through tsx, whose error
// messages are the ones to read.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLI_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Inside the checkout, so that the bundle's imports of installed packages find node_modules.
const CACHE_DIR = process.env.FABSCOPE_CLI_CACHE ?? join(CLI_ROOT, '.compiled');
const MANIFEST = join(CACHE_DIR, 'manifest.json');
const ENTRY = join(CLI_ROOT, 'src', 'main.ts');
/** Builds older than this, no longer in the manifest, are removed (a process may still be loading one). */
const STALE_BUILD_MS = 60 * 60 * 1000;

/** The manifest's build when every input it lists still has the size and mtime recorded, else null. */
function freshBuild() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    return null;
  }
  if (manifest.version !== 1 || manifest.node !== process.version) return null;
  for (const [file, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
    try {
      const s = statSync(join(CLI_ROOT, file));
      if (s.size !== size || s.mtimeMs !== mtimeMs) return null;
    } catch {
      return null;
    }
  }
  return join(CACHE_DIR, manifest.dir, 'main.js');
}

/** Bundles src/main.ts into a new build directory and publishes it; returns its entry. */
async function build() {
  const esbuild = await import('esbuild');
  const dir = `b-${Date.now().toString(36)}-${process.pid}`;
  const outdir = join(CACHE_DIR, dir);
  mkdirSync(outdir, { recursive: true });
  // Inputs are stamped before the build: a file saved during the build then looks changed next run.
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    // Installed packages are loaded from node_modules as they are; fabscope's workspaces (TypeScript
    // sources behind `@fabscope/*`) are bundled.
    plugins: [
      {
        name: 'external-packages',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@fabscope/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = relative(CLI_ROOT, resolve(input));
    const s = statSync(join(CLI_ROOT, file));
    inputs[file] = [s.size, s.mtimeMs];
  }
  const temporary = `${MANIFEST}.${process.pid}`;
  writeFileSync(temporary, JSON.stringify({ version: 1, node: process.version, dir, inputs }));
  renameSync(temporary, MANIFEST);
  removeOldBuilds(dir);
  return join(outdir, 'main.js');
}

function removeOldBuilds(current) {
  for (const entry of readdirSync(CACHE_DIR)) {
    if (entry === current || !entry.startsWith('b-')) continue;
    const path = join(CACHE_DIR, entry);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_BUILD_MS)
        rmSync(path, { recursive: true, force: true });
    } catch {
      // another run removed it first
    }
  }
}

/**
 * The URL of the compiled CLI's entry, building it when the sources changed; null when it cannot
 * be built (the caller then runs the sources through tsx). `FABSCOPE_CLI_SOURCES=1` skips the cache;
 * `FABSCOPE_CLI_CACHE` moves it (tests).
 */
export async function compiledEntry() {
  if (process.env.FABSCOPE_CLI_SOURCES === '1') return null;
  const fresh = freshBuild();
  if (fresh) return pathToFileURL(fresh).href;
  try {
    return pathToFileURL(await build()).href;
  } catch {
    return null;
  }
}

// `node apps/cli/bin/compiled.js` (part of `npm run build`): bring the cache up to date now, so that
// the first command run does not pay for the bundle.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const fresh = freshBuild();
  const entry = fresh ?? (await build());
  console.log(
    `fabscope CLI: ${fresh ? 'compiled cache up to date' : `compiled in ${Date.now() - started} ms`} (${relative(process.cwd(), entry)})`,
  );
}
