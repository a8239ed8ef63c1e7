import { resolve } from "node:path";

/** The folders vcw reads its configuration from, each read from its variable in this one place. */
const FOLDERS = {
  jobs: { variable: "VCW_JOBS_DIR", fallback: "jobs" },
  resources: { variable: "VCW_RESOURCES_DIR", fallback: "resources" },
} as const;

type Folder = keyof typeof FOLDERS;

/**
 * A folder's setting: Settings' `jobsDir` and `resourcesDir` (the daemon's) and the commands' (`vcw jobs
 * check`, `vcw apply`, `vcw validate`, loadJobs) are this. Unset or empty: ./jobs, ./resources.
 */
function folderSetting(
  folder: Folder,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): { value: string; source: string } {
  const { variable, fallback } = FOLDERS[folder];
  const raw = env[variable];
  if (raw === undefined || raw === "")
    return { value: resolve(cwd, fallback), source: `default ./${fallback}` };
  return { value: resolve(cwd, raw), source: `$${variable}` };
}

export const jobsDirSetting = (env?: NodeJS.ProcessEnv, cwd?: string) => folderSetting("jobs", env, cwd);
export const resourcesDirSetting = (env?: NodeJS.ProcessEnv, cwd?: string) =>
  folderSetting("resources", env, cwd);

/** The job files' folder: the one given (an argument), else VCW_JOBS_DIR, else ./jobs. */
export const jobsDir = (dir?: string, env: NodeJS.ProcessEnv = process.env): string =>
  dir ?? jobsDirSetting(env).value;

/** The resource files' folder: the one given (`--dir`), else VCW_RESOURCES_DIR, else ./resources. */
export const resourcesDir = (dir?: string, env: NodeJS.ProcessEnv = process.env): string =>
  dir ?? resourcesDirSetting(env).value;
