import { startDemo } from './demo-process.ts';

/**
 * Starts the demo as a user would (`fabscope demo --prometheus`, a real Prometheus from PATH) on
 * free loopback ports, waits until the API has counter samples, and stops it all afterwards.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const demo = await startDemo({ scenario: 'ar-demo', prometheus: true });
  process.env.FABSCOPE_E2E_URL = demo.url;
  return demo.stop;
}
