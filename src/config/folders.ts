import { resolve } from "node:path";

/** The folders vcw reads its configuration from, each read from its variable in this one place. */
const FOLDERS = {
  jobs: { variable: "VCW_JOBS_DIR", fallback: "jobs" },
  resources: { variable: "VCW_RESOURCES_DIR", fallback: "resources" },
} as const;

type Folder = keyof typeof FOLDERS;

/** A folder as its variable writes it (unset or empty: its default), relative to the working folder. */
function asWritten(folder: Folder, env: NodeJS.ProcessEnv): string {
  const raw = env[FOLDERS[folder].variable];
  return raw === undefined || raw === "" ? FOLDERS[folder].fallback : raw;
}

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
  const written = asWritten(folder, env);
  return {
    value: resolve(cwd, written),
    source: written === env[variable] ? `$${variable}` : `default ./${fallback}`,
  };
}

export const jobsDirSetting = (env?: NodeJS.ProcessEnv, cwd?: string) => folderSetting("jobs", env, cwd);
export const resourcesDirSetting = (env?: NodeJS.ProcessEnv, cwd?: string) =>
  folderSetting("resources", env, cwd);

/**
 * The job files' folder: the one given (an argument), else VCW_JOBS_DIR, else jobs; as written, so
 * `vcw jobs check` names its files as the user wrote the folder ("ok   jobs/example-leads.yaml").
 */
export const jobsDir = (dir?: string, env: NodeJS.ProcessEnv = process.env): string =>
  dir ?? asWritten("jobs", env);

/** The resource files' folder: the one given (`--dir`), else VCW_RESOURCES_DIR, else ./resources. */
export const resourcesDir = (dir?: string, env: NodeJS.ProcessEnv = process.env): string =>
  dir ?? resourcesDirSetting(env).value;
