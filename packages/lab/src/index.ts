export {
  type Lab,
  type LabOptions,
  labMissing,
  SM_ROUTING_ENGINES,
  type SmRoutingEngine,
  startLab,
} from './lab.ts';
export { ibsimNetFile, LabError, type NetFileOptions } from './net-file.ts';
export { type PlaneSubnetOptions, planeNetFile, planeSubnet } from './plane-subnet.ts';
export { type RailSubnetOptions, railSubnet } from './site-subnet.ts';
export { freeUdpPort, type SnmpsimAgent, type SnmpsimAgentOptions, startSnmpsimAgent } from './snmpsim.ts';
