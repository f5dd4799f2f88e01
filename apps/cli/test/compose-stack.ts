import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DOCKER, run } from './docker-engine.ts';

export const ROOT = resolve(import.meta.dirname, '../../..');
const HOST_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The base images the project's files name by default: the Dockerfile's NODE_IMAGE, compose's two. */
export function baseImages(): { node: string; prometheus: string; alertmanager: string } {
  const dockerfile = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8');
  const compose = readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8');
  const named = (text: string, pattern: RegExp, what: string) => {
    const found = pattern.exec(text)?.[1];
    if (!found) throw new Error(`no default for ${what}`);
    return found;
  };
  return {
    node: named(dockerfile, /^ARG NODE_IMAGE=(\S+)$/m, 'NODE_IMAGE in the Dockerfile'),
    prometheus: named(compose, /\$\{PROMETHEUS_IMAGE:-([^}]+)\}/, 'PROMETHEUS_IMAGE in docker-compose.yml'),
    alertmanager: named(
      compose,
      /\$\{ALERTMANAGER_IMAGE:-([^}]+)\}/,
      'ALERTMANAGER_IMAGE in docker-compose.yml',
    ),
  };
}

/** deploy/images/build-standins.sh for those names: built once, reused while its inputs are unchanged. */
export async function buildStandIns(images: ReturnType<typeof baseImages>): Promise<string> {
  return run(
    resolve(ROOT, 'deploy/images/build-standins.sh'),
    [images.node, images.prometheus, images.alertmanager],
    { env: { DOCKER }, timeoutMs: 14 * 60_000 },
  );
}

/**
 * Builds fabscope's image as compose will (the same build argument and network, so compose's
 * `up --build` finds every layer cached), with the host's CA bundle as a build secret: docker-compose
 * 1.x cannot pass secrets, and a base without a CA store (Debian's nodejs) needs it for npm.
 */
export async function buildImage(tag: string, nodeImage: string, target?: string): Promise<void> {
  const secret = existsSync(HOST_CA_BUNDLE) ? ['--secret', `id=host_ca,src=${HOST_CA_BUNDLE}`] : [];
  const stage = target ? ['--target', target] : [];
  await run(
    DOCKER,
    ['build', ...secret, ...stage, '--build-arg', `NODE_IMAGE=${nodeImage}`, '-t', tag, '.'],
    {
      cwd: ROOT,
      env: { DOCKER_BUILDKIT: '1' },
      timeoutMs: 7 * 60_000,
    },
  );
}

export interface Compose {
  (args: string[], timeoutMs?: number): Promise<string>;
  /** The project's containers: service, state, health and the user each runs as. */
  containers(): Promise<{ id: string; service: string; state: string; health: string; user: string }[]>;
}

/** `docker compose` (the v2 plugin) when Debian's client has it, else docker-compose 1.x. */
export async function composeFor(
  project: string,
  env: NodeJS.ProcessEnv,
  files = ['docker-compose.yml'],
): Promise<Compose> {
  let command: [string, ...string[]] = ['docker-compose'];
  try {
    await run(DOCKER, ['compose', 'version'], { timeoutMs: 10_000 });
    command = [DOCKER, 'compose'];
  } catch {
    // Debian bookworm's docker.io has no compose plugin: docker-compose 1.29 it is.
  }
  const [bin, ...pre] = command;
  const compose = ((args: string[], timeoutMs = 5 * 60_000) =>
    run(bin, [...pre, '-p', project, ...files.flatMap((f) => ['-f', f]), ...args], {
      cwd: ROOT,
      env,
      timeoutMs,
    })) as Compose;
  compose.containers = async () => {
    const ids = (await run(DOCKER, ['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`]))
      .split('\n')
      .filter(Boolean);
    if (ids.length === 0) return [];
    const format =
      '{{.Id}}\t{{index .Config.Labels "com.docker.compose.service"}}\t{{.State.Status}}\t{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}\t{{.Config.User}}';
    return (await run(DOCKER, ['inspect', '--format', format, ...ids]))
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [id = '', service = '', state = '', health = '', user = ''] = line.split('\t');
        return { id, service, state, health, user };
      });
  };
  return compose;
}

/** What the project left behind: containers, networks and volumes labelled with its name. */
export async function leftovers(project: string): Promise<string[]> {
  const filter = ['--filter', `label=com.docker.compose.project=${project}`];
  const lines = async (args: string[]) => (await run(DOCKER, args)).split('\n').filter(Boolean);
  return [
    ...(await lines(['ps', '-aq', ...filter])).map((id) => `container ${id}`),
    ...(await lines(['network', 'ls', '-q', ...filter])).map((id) => `network ${id}`),
    ...(await lines(['volume', 'ls', '-q', ...filter])).map((id) => `volume ${id}`),
  ];
}

const PROJECT_PREFIX = 'fabscope-test-';

/** The name this test gives its compose projects: the process id, so a crashed run's can be found. */
export function projectName(): string {
  return `${PROJECT_PREFIX}${process.pid}-${Date.now().toString(36)}`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes what runs of this test killed before their `down -v` left (containers, networks, volumes). */
export async function removeAbandonedProjects(): Promise<void> {
  const format = '{{.Label "com.docker.compose.project"}}';
  const projects = new Set<string>();
  for (const kind of ['container', 'network', 'volume']) {
    const list = kind === 'container' ? ['ps', '-a'] : [kind, 'ls'];
    const out = await run(DOCKER, [
      ...list,
      '--filter',
      'label=com.docker.compose.project',
      '--format',
      format,
    ]);
    for (const name of out.split('\n')) {
      const pid = Number(
        name.startsWith(PROJECT_PREFIX) ? name.slice(PROJECT_PREFIX.length).split('-')[0] : NaN,
      );
      if (Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) projects.add(name);
    }
  }
  for (const project of projects) {
    const filter = ['--filter', `label=com.docker.compose.project=${project}`];
    const ids = async (args: string[]) =>
      (await run(DOCKER, [...args, ...filter])).split('\n').filter(Boolean);
    const containers = await ids(['ps', '-aq']);
    if (containers.length > 0) await run(DOCKER, ['rm', '-f', '-v', ...containers]);
    const networks = await ids(['network', 'ls', '-q']);
    if (networks.length > 0) await run(DOCKER, ['network', 'rm', ...networks]);
    const volumes = await ids(['volume', 'ls', '-q']);
    if (volumes.length > 0) await run(DOCKER, ['volume', 'rm', ...volumes]);
    console.log(`compose-stack: removed ${project}, left by a run that did not finish`);
  }
}
