import { configFromEnv, startApi } from '@fabscope/api';
import { WEB_ROOT } from '../demo/demo.ts';
import { stopOnSignal } from './shared.ts';
import { fabricFromConfig } from './topology.ts';

export async function serveCommand(args: string[]): Promise<void> {
  if (args.length > 0) {
    throw new Error('fabscope serve takes no arguments (settings are environment variables)');
  }
  const config = configFromEnv();
  if (config.fabricSource === 'infiniband') {
    const { serveInfiniband } = await import('../serve-infiniband.ts');
    const port = process.env.FABSCOPE_COLLECTOR_PORT;
    const running = await serveInfiniband(config, port ? { collectorPort: Number(port) } : {});
    const subnets =
      running.subnets.length > 1 ? `subnets ${running.subnets.map((s) => s.name).join(', ')}` : 'subnet';
    process.stdout.write(
      `fabscope serve: ${running.api.url}/ (InfiniBand ${subnets}: ${running.fabric.nodes.length} nodes, ${running.fabric.links.length} links discovered; collector ${running.collectors.map((c) => c.url).join(', ')}; store ${running.api.store.kind})\n`,
    );
    stopOnSignal(() => running.stop());
    return;
  }
  if (config.fabricSource === 'snmp') {
    const { serveSnmp } = await import('../serve-snmp.ts');
    const port = process.env.FABSCOPE_COLLECTOR_PORT;
    const running = await serveSnmp(config, port ? { collectorPort: Number(port) } : {});
    const isls = running.fabric.links.filter((l) => l.kind === 'isl').length;
    process.stdout.write(
      `fabscope serve: ${running.api.url}/ (Ethernet by SNMP and LLDP: ${running.fabric.nodes.length} nodes, ${isls} ISLs; collector ${running.collector.url}; store ${running.api.store.kind})\n`,
    );
    stopOnSignal(() => running.stop());
    return;
  }
  const { fabric, tables } = fabricFromConfig(config);
  const api = await startApi(config, fabric, { tables, webRoot: WEB_ROOT });
  process.stdout.write(`fabscope serve: ${api.url}/ (fabric ${fabric.name}, store ${api.store.kind})\n`);
  stopOnSignal(() => api.close());
}
