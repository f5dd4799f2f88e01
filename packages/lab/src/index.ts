export {
  type Lab,
  type LabOptions,
  labMissing,
  SM_ROUTING_ENGINES,
  type SmRoutingEngine,
  startLab,
  UMAD2SIM_PATH,
} from './lab.ts';
export { IBSIM_DEFAULT_LIMITS, ibsimNetFile, LabError, labWidthSpeed } from './net-file.ts';
