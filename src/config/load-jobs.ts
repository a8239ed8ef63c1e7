import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { inboxProblem } from "../inbox/inbox-guard.ts";
import { resourcesDir } from "./folders.ts";
import { JobDefinition } from "./job-definition.ts";
import {
  documentValue,
  formatProblem,
  type JobProblem,
  type JobWarning,
  zodProblems,
} from "./job-problems.ts";
import { oldSpellingsIn } from "./old-spellings.ts";
import { poolResources, withPoolResource } from "./pool-resources.ts";
import { DEFAULT_SERVICE_PROFILE, ServiceProfile, withServiceProfile } from "./service-profile.ts";
import {
  BUILTIN_SINKS,
  type SinkDefinition,
  SinksFile,
  sinkVariableProblem,
  sinkVariables,
} from "./sink-definition.ts";

export interface LoadedJobs {
  /** Each job loaded, with the line of a path in its file (`campaign.variants.1.assistant`). */
  jobs: { file: string; job: JobDefinition; lineOf?: (path: string) => number | undefined }[];
  /** Sinks by name: jobs/sinks.yaml plus the built-in `log`. */
  sinks: Record<string, SinkDefinition>;
  /** The file each configured sink was defined in. */
  sinkFiles: Record<string, string>;
  /** The service profile (jobs/service.yaml, else the defaults) and its file, when there is one. */
  service: { profile: ServiceProfile; file?: string };
  problems: JobProblem[];
  /** Old spellings read in their new places, the service's fields a job still writes: the file still loads. */
  warnings: JobWarning[];
  /** The name each job file gives itself, loaded or not (a file with a problem is not loaded). */
  declared: Record<string, string>;
}

/** The file of sink definitions, beside the jobs. */
export const SINKS_FILE = /^sinks\.ya?ml$/;

/** The service profile, beside the jobs (decision 0072). */
export const SERVICE_FILE = /^service\.ya?ml$/;

/**
 * Reads and validates every *.yaml / *.yml in `dir`; collects every problem with its file, path and
 * line. `resources`: the folder of the dialer pools jobs may name (`campaign.dialers: { resource }`).
 */
export async function loadJobs(dir: string, resources = resourcesDir()): Promise<LoadedJobs> {
  const all = (await readdir(dir).catch(() => [] as string[])).filter((f) => /\.ya?ml$/.test(f)).sort();
  const result: LoadedJobs = {
    jobs: [],
    // By the names the operator gives them: none meets Object.prototype.
    sinks: Object.assign(Object.create(null) as Record<string, SinkDefinition>, BUILTIN_SINKS),
    sinkFiles: {},
    service: { profile: DEFAULT_SERVICE_PROFILE },
    problems: [],
    warnings: [],
    declared: {},
  };
  for (const name of all.filter((f) => SINKS_FILE.test(f))) {
    const parsed = await parseFile(join(dir, name), SinksFile, result.problems);
    if (!parsed) continue;
    Object.assign(result.sinks, parsed.value.sinks);
    for (const sink of Object.keys(parsed.value.sinks)) result.sinkFiles[sink] = join(dir, name);
  }
  const badService = await readServiceProfile(dir, all, result);
  const files = all.filter((f) => !SINKS_FILE.test(f) && !SERVICE_FILE.test(f));
  const pools = await poolResources(resources);
  const lineOf = new Map<string, (path: string) => number | undefined>();
  const names = new Map<string, string>();
  for (const name of files) {
    const file = join(dir, name);
    const moved: JobWarning[] = [];
    const parsed = await parseFile(file, JobDefinition, result.problems, (raw, lineAt) => {
      const name = (raw as { name?: unknown } | null)?.name;
      if (typeof name === "string") result.declared[file] = name;
      const warn = (kind: JobWarning["kind"], path: string, message: string) =>
        moved.push({ kind, file, path, line: lineAt(path), message });
      for (const m of oldSpellingsIn(raw)) warn("old_spelling", m.from, `is now ${m.to} (read as such)`);
      const service = withServiceProfile(raw, result.service.profile);
      for (const path of service.written)
        warn(
          "service_setting",
          path,
          `describes the calling service, not the job: set it in ${join(dir, "service.yaml")} (this job's value still applies to it)`,
        );
      const pool = withPoolResource(service.value, pools, resources);
      if ("value" in pool) return pool.value;
      result.problems.push({ file, ...pool.problem, line: lineAt(pool.problem.path) });
      return undefined;
    });
    // Both spellings, disagreeing, are a problem of that path instead.
    const wrong = new Set(result.problems.filter((p) => p.file === file).map((p) => p.path));
    result.warnings.push(...moved.filter((w) => !wrong.has(w.path)));
    if (!parsed) continue;
    const job = parsed.value;
    lineOf.set(file, parsed.lineOf);
    const other = names.get(job.name);
    if (other) {
      result.problems.push({
        file,
        path: "name",
        message: `job name "${job.name}" is also used by ${other}`,
      });
      continue;
    }
    names.set(job.name, file);
    result.jobs.push({ file, job, lineOf: parsed.lineOf });
  }
  // A job with a problem is not loaded: it never runs half-configured.
  const failed = new Set<string>();
  for (const { file } of badService ? result.jobs : []) {
    result.problems.push({
      file,
      path: "",
      message: `not loaded: the service profile ${badService} has a problem`,
    });
    failed.add(file);
  }
  for (const [i, { file, job }] of result.jobs.entries()) {
    const others = result.jobs.filter((_, k) => k < i).map((j) => j.job.inbox);
    const problem = inboxProblem(job.inbox, { cwd: process.cwd(), others });
    if (problem) {
      result.problems.push({ file, path: "inbox", line: lineOf.get(file)?.("inbox"), message: problem });
      failed.add(file);
    }
  }
  for (const { file, job } of result.jobs) {
    const used = [
      ...job.summaries.sinks.map((sink, i) => ({ sink, path: `summaries.sinks.${i}` })),
      ...job.reports.flatMap((r, i) => r.sinks.map((sink, k) => ({ sink, path: `reports.${i}.sinks.${k}` }))),
    ];
    for (const { sink, path } of used) {
      if (!Object.hasOwn(result.sinks, sink)) {
        result.problems.push({
          file,
          path,
          message: `no sink named "${sink}" (define it in ${join(dir, "sinks.yaml")}); the job is not loaded`,
        });
        failed.add(file);
      }
    }
  }
  result.jobs = result.jobs.filter((j) => !failed.has(j.file));
  return result;
}

/**
 * Reads the service profile into `result.service` (its problems into `result.problems`); returns
 * the file when it has a problem: no job is loaded then, as none would read the service's words right.
 */
async function readServiceProfile(
  dir: string,
  all: string[],
  result: LoadedJobs,
): Promise<string | undefined> {
  const [first, ...others] = all.filter((f) => SERVICE_FILE.test(f)).map((f) => join(dir, f));
  if (!first) return undefined;
  result.service.file = first;
  for (const other of others)
    result.problems.push({
      file: other,
      path: "",
      message: `is a second service profile beside ${first}: keep one`,
    });
  // An empty file (or one of comments only) is the defaults.
  const parsed = await parseFile(first, ServiceProfile, result.problems, (raw) => raw ?? {});
  if (parsed) result.service.profile = parsed.value;
  return parsed && others.length === 0 ? undefined : first;
}

/**
 * Sinks that could never deliver here because a variable they read (a webhook's secret, a Slack or
 * e-mail sink's URL) is unset or can't be what it must (read at delivery, so otherwise found only
 * after hours of retries): one problem each, naming the sink's file, the sink, the variable and the
 * jobs that send to it. The value is never quoted.
 */
export function unsetSinkVariables(loaded: LoadedJobs, env: NodeJS.ProcessEnv): JobProblem[] {
  const problems: JobProblem[] = [];
  for (const [sink, def] of Object.entries(loaded.sinks)) {
    for (const v of sinkVariables(def)) {
      const wrong = sinkVariableProblem(v, env[v.variable]);
      if (!wrong) continue;
      const users = loaded.jobs
        .filter(({ job }) => [...job.summaries.sinks, ...job.reports.flatMap((r) => r.sinks)].includes(sink))
        .map(({ file, job }) => `${job.name} (${file})`);
      problems.push({
        file: loaded.sinkFiles[sink] ?? "sinks.yaml",
        path: `sinks.${sink}.${v.field}`,
        message: `the environment variable ${v.variable} (${v.what}) ${wrong}: sink "${sink}" could not deliver${users.length ? `; jobs sending to it: ${users.join(", ")}` : ""}`,
      });
    }
  }
  return problems;
}

/** Parses and validates one YAML file; every problem is recorded with its path and line. */
async function parseFile<S extends z.ZodType>(
  file: string,
  schema: S,
  problems: JobProblem[],
  /** Sees the document first; returns what to parse instead, or undefined when it recorded a problem. */
  onRaw: (raw: unknown, lineOf: (path: string) => number | undefined) => unknown = (raw) => raw,
): Promise<{ value: z.output<S>; lineOf: (path: string) => number | undefined } | undefined> {
  const lines = new LineCounter();
  const doc = parseDocument(await readFile(file, "utf8"), { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    for (const e of doc.errors)
      problems.push({ file, path: "", line: lines.linePos(e.pos[0]).line, message: e.message });
    return undefined;
  }
  const read = documentValue(doc, file, lines);
  if ("problem" in read) {
    problems.push(read.problem);
    return undefined;
  }
  const lineOf = (path: string) => {
    const node = doc.getIn(path.split("."), true) as { range?: [number, number] } | undefined;
    return node?.range ? lines.linePos(node.range[0]).line : undefined;
  };
  const value = onRaw(read.value, lineOf);
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return { value: parsed.data, lineOf };
  problems.push(...zodProblems(file, doc, lines, parsed.error.issues));
  return undefined;
}

/**
 * The job a command names, or what to tell the person: when its file is there but invalid, that
 * file and what is wrong in it (not "no such job"); else the jobs there are, and the files that
 * could not be loaded.
 */
export function findJob(
  loaded: LoadedJobs,
  name: string,
  dir: string,
): LoadedJobs["jobs"][number] | { error: string } {
  const found = loaded.jobs.find(({ job }) => job.name === name);
  if (found) return found;
  const files = Object.keys(loaded.declared).filter((f) => loaded.declared[f] === name);
  const wrong = loaded.problems.filter((p) => files.includes(p.file));
  if (wrong.length > 0)
    return {
      error: `job "${name}" (${files.join(", ")}) is not loaded, its definition has ${wrong.length === 1 ? "a problem" : `${wrong.length} problems`}: ${wrong.map(formatProblem).join("; ")}`,
    };
  const known = loaded.jobs.map(({ job }) => job.name).join(", ") || "none";
  const invalid = [...new Set(loaded.problems.map((p) => p.file))];
  return {
    error: `no job named "${name}" in ${dir} (jobs: ${known})${invalid.length > 0 ? `; not loaded, with problems: ${invalid.join(", ")} (vcw jobs check says what)` : ""}`,
  };
}
