#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: one code path for development, tests and production.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
await main(process.argv);
