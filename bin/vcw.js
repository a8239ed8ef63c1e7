#!/usr/bin/env node
// `vcw`. In a checkout (src/ is there) it runs the TypeScript sources through tsx, so development,
// tests and CI share one code path with no build to go stale. An installed package has no src/ and
// runs its compiled build (dist/), as the Docker image does (node dist/src/cli/bin.js).
import { existsSync } from "node:fs";

const sources = new URL("../src/cli/bin.ts", import.meta.url);
const built = new URL("../dist/src/cli/bin.js", import.meta.url);

async function registerTsx() {
  try {
    const { register } = await import("tsx/esm/api");
    register();
    return true;
  } catch {
    return false;
  }
}

if (existsSync(sources) && (await registerTsx())) await import(sources.href);
else if (existsSync(built)) await import(built.href);
else {
  console.error("vcw: neither dist/ nor tsx is here: run `npm ci` (a checkout), or `npm run build`");
  process.exit(1);
}
