// What the CLI's tests and benches start in-process.
export { type RunningDemo, startDemo } from './demo/demo.ts';
export { type RunningIbsimDemo, startIbsimDemo } from './demo/ibsim.ts';
export { type RunningRoceDemo, startRoceDemo } from './demo/roce.ts';
export { freePort } from './free-port.ts';
export { type PrometheusServer, startPrometheus } from './prometheus/prometheus.ts';
export { type ServeInfinibandOptions, serveInfiniband } from './serve-infiniband.ts';
