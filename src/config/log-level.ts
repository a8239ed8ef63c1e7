/**
 * LOG_LEVEL, read in this one place: by Settings (the daemon, default `info`) and by the commands that
 * log before they have Settings (default `warn`). No import: `vcw api` reads it without loading pino.
 */

/** pino's levels, and `silent`. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL with where it came from; unset or empty: `fallback`. A value pino lacks is an error naming it. */
export function logLevelSetting(
  env: NodeJS.ProcessEnv,
  fallback: LogLevel,
): { value: LogLevel; source: string } {
  const raw = env.LOG_LEVEL;
  if (raw === undefined || raw === "") return { value: fallback, source: "default" };
  if (!(LOG_LEVELS as readonly string[]).includes(raw))
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not "${raw}"`);
  return { value: raw as LogLevel, source: "$LOG_LEVEL" };
}

/** The level to log at: LOG_LEVEL, else `fallback` (the daemon's `info`, a command's `warn`). */
export const logLevelOf = (env: NodeJS.ProcessEnv, fallback: LogLevel): LogLevel =>
  logLevelSetting(env, fallback).value;
