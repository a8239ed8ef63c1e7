import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const NAME = "voice-campaign-worker";

/** This package's package.json: two folders up from src/cli, three from dist/src/cli. */
function manifest(): { url: URL; version?: string } | undefined {
  for (const up of ["../../package.json", "../../../package.json"]) {
    const url = new URL(up, import.meta.url);
    try {
      const pkg = JSON.parse(readFileSync(url, "utf8")) as { name?: string; version?: string };
      if (pkg.name === NAME) return { url, ...(pkg.version ? { version: pkg.version } : {}) };
    } catch {
      // not there: the other layout
    }
  }
  return undefined;
}

/** This package's version, from its package.json. */
export function packageVersion(): string {
  return manifest()?.version ?? "unknown";
}

/**
 * A file the package ships (`jobs/samples/...`), found from the package, not from where vcw runs:
 * an installed vcw runs in its user's project.
 */
export function packageFile(path: string): string {
  const found = manifest();
  return fileURLToPath(new URL(path, found?.url ?? new URL("../../", import.meta.url)));
}
