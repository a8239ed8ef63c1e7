#!/usr/bin/env node
// `vcw`. In a checkout (src/ is there) it runs the TypeScript sources through tsx, so development,
// tests and CI share one code path with no build to go stale. An installed package has no src/ and
// runs its compiled build (dist/), as the Docker image does (node dist/src/cli/bin.js).
import { existsSync } from "node:fs";

// The Node vcw is tested on and supports. Not in package.json's `engines`: npm checks that against
// the Node running npm, which in a checkout is the machine's while vcw runs on the node@22 dev
// dependency, so every first `npx vcw` warned of something nobody could change. Said here instead,
// where it is true: the Node about to run vcw.
const SUPPORTED = [22, 22];
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < SUPPORTED[0] || (major === SUPPORTED[0] && minor < SUPPORTED[1])) {
  console.error(
    `vcw: it runs on Node ${SUPPORTED.join(".")} or later, and this is Node ${process.versions.node} (${process.execPath}). ` +
      "Install Node 22 (or later) and run vcw with it; in a checkout, `npx vcw` and `npm start` use the Node 22 that `npm ci` installs.",
  );
  process.exit(1);
}

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
