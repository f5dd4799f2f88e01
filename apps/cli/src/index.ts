export { type DemoOptions, type RunningDemo, startDemo, WEB_ROOT } from './demo/demo.ts';
export { type IbsimDemoOptions, type RunningIbsimDemo, startIbsimDemo } from './demo/ibsim.ts';
export { freePort } from './free-port.ts';
export { ibPortReaderCommand } from './ib-port-reader-command.ts';
export {
  findPrometheus,
  MissingToolError,
  type PrometheusServer,
  prometheusConfig,
  type ScrapeJob,
  startPrometheus,
} from './prometheus/prometheus.ts';
