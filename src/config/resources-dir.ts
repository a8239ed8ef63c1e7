import { resolve } from "node:path";

/**
 * VCW_RESOURCES_DIR, read in this one place: Settings' `resourcesDir` (the daemon's) and the commands'
 * (`vcw apply`, `vcw jobs check`, loadJobs) are this. Unset or empty: ./resources.
 */
export function resourcesDirSetting(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): { value: string; source: string } {
  const raw = env.VCW_RESOURCES_DIR;
  if (raw === undefined || raw === "")
    return { value: resolve(cwd, "resources"), source: "default ./resources" };
  return { value: resolve(cwd, raw), source: "$VCW_RESOURCES_DIR" };
}

/** The resource files' folder: the one given (`--dir`), else VCW_RESOURCES_DIR, else ./resources. */
export const resourcesDir = (dir?: string, env: NodeJS.ProcessEnv = process.env): string =>
  dir ?? resourcesDirSetting(env).value;
