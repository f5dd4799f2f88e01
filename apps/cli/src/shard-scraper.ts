import { join } from 'node:path';
import { stringify } from 'yaml';
import { CHECKOUT_ROOT } from './checkout.ts';
import { seconds, withFabricTargets } from './prometheus/prometheus.ts';

/** One shard's scraper config, which remote-writes to the central store (docs/scaling.md). */
export const SHARD_SCRAPER_CONFIG = join(CHECKOUT_ROOT, 'deploy/vmagent/fabric-shard.yml');

/** deploy/vmagent/fabric-shard.yml for `targets`, at another interval when given. */
export function shardScraperConfig(
  targets: string[],
  settings: { scrapeIntervalMs?: number } = {},
  source = SHARD_SCRAPER_CONFIG,
): string {
  const { config } = withFabricTargets(source, targets);
  if (settings.scrapeIntervalMs !== undefined) {
    const interval = seconds(settings.scrapeIntervalMs);
    config.global = { ...config.global, scrape_interval: interval, scrape_timeout: interval };
  }
  return stringify(config);
}
