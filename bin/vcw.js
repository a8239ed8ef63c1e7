#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so development, tests and CI share one code path with no
// build to go stale. The Docker image runs the compiled build instead (node dist/src/cli/bin.js).
import { register } from "tsx/esm/api";

register();
await import("../src/cli/bin.ts");
