import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { CHECKOUT_ROOT } from './checkout.ts';
import { FABRIC_JOB } from './prometheus/prometheus.ts';

/** One shard's scraper config, which remote-writes to the central store (docs/scaling.md). */
export const SHARD_SCRAPER_CONFIG = join(CHECKOUT_ROOT, 'deploy/vmagent/fabric-shard.yml');

interface ScrapeYaml {
  global?: Record<string, string>;
  scrape_configs?: { job_name: string; static_configs?: { targets: string[] }[] }[];
}

/** deploy/vmagent/fabric-shard.yml for `targets`, at another interval when given. */
export function shardScraperConfig(
  targets: string[],
  settings: { scrapeIntervalMs?: number } = {},
  source = SHARD_SCRAPER_CONFIG,
): string {
  const config = parse(readFileSync(source, 'utf8')) as ScrapeYaml;
  const job = config.scrape_configs?.find((c) => c.job_name === FABRIC_JOB);
  if (!job) throw new Error(`${source} has no scrape job "${FABRIC_JOB}"`);
  job.static_configs = [{ targets }];
  if (settings.scrapeIntervalMs !== undefined) {
    const interval = `${Math.max(1, Math.round(settings.scrapeIntervalMs / 1000))}s`;
    config.global = { ...config.global, scrape_interval: interval, scrape_timeout: interval };
  }
  return stringify(config);
}
