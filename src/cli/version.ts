import { readFileSync } from "node:fs";

const NAME = "voice-campaign-worker";

/** This package's version, from its package.json: two folders up from src/cli, three from dist/src/cli. */
export function packageVersion(): string {
  for (const up of ["../../package.json", "../../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === NAME && pkg.version) return pkg.version;
    } catch {
      // not there: the other layout
    }
  }
  return "unknown";
}
