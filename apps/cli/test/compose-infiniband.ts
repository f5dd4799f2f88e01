import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ibsimNetFile, type Lab, startLab } from '@fabscope/lab';
import { freePort } from '@fabscope/test-support';
import { buildScenario } from '@fabscope/topology';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type baseImages,
  buildImage,
  type Compose,
  composeFor,
  leftovers,
  projectName,
} from './compose-stack.ts';
import { eventually } from './eventually.ts';

const IMAGE = 'fabscope-infiniband:local';
const NAMES = ['core1', 'core2', 'edge1', 'edge2', 'nodeA', 'nodeB', 'nodeC', 'nodeD'];

/**
 * The lab in place of a host's HCA: umad2sim (the host's, mounted read-only at its own path) preloaded
 * in the container, which reaches ibsim's socket on the host's network; /dev/null stands in for the
 * umad device the site file passes in, since umad2sim answers every open of /dev/infiniband itself.
 */
function labOverride(lab: Lab): string {
  const dir = mkdtempSync(join(tmpdir(), 'fabscope-compose-lab-'));
  const file = join(dir, 'lab.yml');
  const preload = lab.env.LD_PRELOAD ?? '';
  writeFileSync(
    file,
    JSON.stringify({
      services: {
        fabric: {
          working_dir: lab.cwd,
          environment: { ...lab.env, FABSCOPE_DISCOVER_INTERVAL_MS: '2000' },
          volumes: [`${dirname(preload)}:${dirname(preload)}:ro`, `${lab.cwd}:${lab.cwd}`],
        },
      },
    }),
  );
  return file;
}

// docker-compose.infiniband.yml as a site runs it — `fabscope serve` with FABSCOPE_FABRIC=infiniband
// on the host's network, as a non-root user with only the umad device's group — against the ibsim +
// OpenSM lab: the subnet's own names, every port with data.
export function siteProfileOnTheLab(images: ReturnType<typeof baseImages>): void {
  describe('docker-compose.infiniband.yml: fabscope serve in a container, on the lab’s subnet', () => {
    const project = projectName();
    let lab: Lab | undefined;
    let compose: Compose | undefined;
    let override = '';
    let port = 0;
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field below
    const get = async (path: string): Promise<any> =>
      (await fetch(`http://127.0.0.1:${port}/api/v1${path}`)).json();

    beforeAll(async () => {
      const started = Date.now();
      await buildImage(IMAGE, images.node, 'infiniband');
      lab = await startLab({
        net: ibsimNetFile(buildScenario('ar-demo')),
        routing: 'minhop',
        sockName: `compose-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
      });
      // The container's user (node) writes umad2sim's simulated sysfs into the lab's directory.
      chmodSync(lab.cwd, 0o777);
      override = labOverride(lab);
      port = await freePort();
      compose = await composeFor(
        project,
        {
          FABSCOPE_PORT: String(port),
          FABSCOPE_UMAD_DEVICE: '/dev/null',
          // As the site file says: the device's group (stat -c %g).
          FABSCOPE_UMAD_GID: String(statSync('/dev/null').gid),
          DOCKER_BUILDKIT: '1',
          COMPOSE_DOCKER_CLI_BUILD: '1',
        },
        ['docker-compose.infiniband.yml', override],
      );
      const c = compose;
      await c(['up', '-d', '--build']);
      await eventually(
        async () => {
          const [fabric] = await c.containers();
          expect(fabric?.health, await c(['logs', '--tail', '30'])).toBe('healthy');
        },
        120_000,
        1000,
      );
      console.log(
        `compose-stack: the site image built and serving the lab in ${(Date.now() - started) / 1000} s`,
      );
    }, 8 * 60_000);

    afterAll(async () => {
      await compose?.(['down', '-v', '--remove-orphans']).catch(console.error);
      await lab?.stop();
      if (override) rmSync(dirname(override), { recursive: true, force: true });
    }, 120_000);

    it('runs as a non-root user without capabilities', async () => {
      const [fabric] = (await compose?.containers()) ?? [];
      expect(fabric?.user).toBe('node');
    });

    it('discovers the subnet (its NodeDescriptions) and reads every port', async () => {
      const topology = await get('/topology');
      expect(topology.nodes.map((n: { name: string }) => n.name).sort()).toEqual(NAMES);
      expect(topology.links).toHaveLength(8);
      await eventually(async () => {
        const summary = await get('/summary');
        expect(summary.portsWithoutData).toBe(0);
        expect(summary.hostTransmitBytesPerSecond).not.toBeNull();
      }, 30_000);
    }, 60_000);

    it('routes with the subnet manager’s tables, read from the switches (not a scenario’s)', async () => {
      const route = await eventually(async () => {
        const r = await get('/route?from=nodeA&to=nodeD');
        expect(r.tables?.source).toBe('sm');
        return r;
      }, 40_000);
      expect(route.tables.from).toBe('dump_fts');
    }, 60_000);

    it('`down -v` leaves nothing of the site project', async () => {
      await compose?.(['down', '-v', '--remove-orphans']);
      expect(await leftovers(project)).toEqual([]);
    }, 120_000);
  });
}
