export {
  type Lab,
  type LabOptions,
  labMissing,
  SM_ROUTING_ENGINES,
  type SmRoutingEngine,
  startLab,
} from './lab.ts';
export { ibsimNetFile, LabError } from './net-file.ts';
