#!/usr/bin/env node
// Runs one TypeScript file (a benchmark, a generator) through tsx: `node bin/run-ts.js FILE [ARGS...]`.
import { pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

register();
const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bin/run-ts.js FILE [ARGS...]");
  process.exit(2);
}
process.argv = [process.argv[0], file, ...rest];
await import(pathToFileURL(file).href);
