import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { isMap, LineCounter, parseDocument } from "yaml";
import { JobDefinition } from "./job-definition.ts";

export interface JobProblem {
  file: string;
  /** Dotted path in the document, e.g. `segment.name`; empty for the whole file. */
  path: string;
  line?: number | undefined;
  message: string;
}

export interface LoadedJobs {
  jobs: { file: string; job: JobDefinition }[];
  problems: JobProblem[];
}

/** Reads and validates every *.yaml / *.yml in `dir`; collects every problem with its file, path and line. */
export async function loadJobs(dir: string): Promise<LoadedJobs> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /\.ya?ml$/.test(f)).sort();
  const result: LoadedJobs = { jobs: [], problems: [] };
  const names = new Map<string, string>();
  for (const name of files) {
    const file = join(dir, name);
    const lines = new LineCounter();
    const doc = parseDocument(await readFile(file, "utf8"), { lineCounter: lines, prettyErrors: false });
    if (doc.errors.length > 0) {
      for (const e of doc.errors)
        result.problems.push({ file, path: "", line: lines.linePos(e.pos[0]).line, message: e.message });
      continue;
    }
    const parsed = JobDefinition.safeParse(doc.toJS());
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const node = doc.getIn(issue.path as (string | number)[], true) as
          | { range?: [number, number] }
          | undefined;
        const parent =
          issue.path.length > 0
            ? doc.getIn(issue.path.slice(0, -1) as (string | number)[], true)
            : doc.contents;
        const range = node?.range ?? (isMap(parent) ? parent.range : undefined);
        result.problems.push({
          file,
          path: issue.path.join("."),
          line: range ? lines.linePos(range[0]).line : undefined,
          message:
            issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message,
        });
      }
      continue;
    }
    const job = parsed.data;
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
    result.jobs.push({ file, job });
  }
  return result;
}

export const formatProblem = (p: JobProblem) =>
  `${p.file}${p.line ? `:${p.line}` : ""}: ${p.path ? `${p.path}: ` : ""}${p.message}`;
