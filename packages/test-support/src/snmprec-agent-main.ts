// Child entry of snmprec-agent-process.ts: serves the recordings named in argv[2], prints their ports as one JSON line.
import { serveSnmprec } from './snmprec-agent.ts';

const agents = await serveSnmprec(JSON.parse(process.argv[2] ?? '{}') as Record<string, string>);
process.stdout.write(`${JSON.stringify(Object.fromEntries(agents.ports))}\n`);
process.once('SIGTERM', () => {
  void agents.stop().then(() => process.exit(0));
});
