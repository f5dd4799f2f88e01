export {
  type Lab,
  type LabOptions,
  labMissing,
  SM_ROUTING_ENGINES,
  type SmRoutingEngine,
  startLab,
} from './lab.ts';
export { ibsimNetFile, LabError, type NetFileOptions } from './net-file.ts';
export { type RailSubnetOptions, railSubnet } from './site-subnet.ts';
