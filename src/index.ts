export * from "./api/index.ts";
export { type Simulator, type SimulatorOptions, startSimulator } from "./simulator/server.ts";
