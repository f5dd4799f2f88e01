import type { Health } from '@fabscope/contracts';
import { freePort } from '../free-port.ts';
import { type PrometheusOptions, type PrometheusServer, startPrometheus } from './prometheus.ts';

/** What the supervisor reports (into the API's /health). */
type PrometheusSupervisorStatus = NonNullable<Health['supervisor']>;

export interface SupervisedPrometheus {
  /** Stays the same across restarts: the port is kept. */
  url: string;
  status(): PrometheusSupervisorStatus;
  /** The running process id, or undefined between a crash and its restart. */
  pid(): number | undefined;
  /** Stops supervising and the process: SIGTERM, SIGKILL after 3 s, so a demo stops within 5 s. */
  stop(): Promise<void>;
}

/** First delay before a restart, doubled after each restart that did not stay up, to at most 10 s. */
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 10_000;
/** A run this long resets the back-off. */
const STABLE_AFTER_MS = 30_000;

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Runs a Prometheus and restarts it on the same port after a doubling back-off when it dies. */
export async function supervisePrometheus(options: PrometheusOptions): Promise<SupervisedPrometheus> {
  const port = options.port ?? (await freePort());
  const start = () => startPrometheus({ ...options, port, killAfterMs: 3000 });
  let current: PrometheusServer | undefined = await start();
  let startedAt = Date.now();
  let restarts = 0;
  let lastExit: string | undefined;
  let backoffMs = INITIAL_BACKOFF_MS;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  const watch = (server: PrometheusServer) => {
    void server.exited.then(async (how) => {
      if (stopping || current !== server) return;
      current = undefined;
      lastExit = how;
      await server.stop().catch(() => undefined); // removes its TSDB directory
      if (Date.now() - startedAt >= STABLE_AFTER_MS) backoffMs = INITIAL_BACKOFF_MS;
      schedule(`prometheus exited (${how})`);
    });
  };
  const schedule = (why: string) => {
    if (stopping) return;
    const delay = backoffMs;
    backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
    log(`fabscope: ${why}; restarting it in ${delay} ms`);
    timer = setTimeout(restart, delay);
  };
  const restart = async () => {
    if (stopping) return;
    try {
      const server = await start();
      if (stopping) {
        await server.stop();
        return;
      }
      current = server;
      startedAt = Date.now();
      restarts++;
      log(`fabscope: prometheus restarted at http://127.0.0.1:${port} (restart ${restarts})`);
      watch(server);
    } catch (error) {
      lastExit = `failed to start: ${(error as Error).message}`;
      schedule(`prometheus did not start (${(error as Error).message})`);
    }
  };
  watch(current);

  return {
    url: current.url,
    status: () => ({
      restarts,
      running: current !== undefined,
      ...(lastExit === undefined ? {} : { lastExit }),
    }),
    pid: () => current?.pid,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      const server = current;
      current = undefined;
      await server?.stop();
    },
  };
}
