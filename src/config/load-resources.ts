import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { LineCounter, parseAllDocuments } from "yaml";
import type { z } from "zod";
import { AssistantCreate, DialerCreate, KnowledgeBaseCreate } from "../api/schemas/index.ts";
import type { DialerPool } from "./dialer-pool-definition.ts";
import { documentValue, type JobProblem, zodProblems } from "./job-problems.ts";
import { readQuestionAnswers } from "./question-answer-csv.ts";
import { type EnvRef, ResourceDocument, type ResourceKind, SECRET_FIELDS } from "./resource-definition.ts";

/** One declared resource, its knowledge base pairs read from their CSV. */
export interface ResourceEntry {
  kind: ResourceKind;
  name: string;
  file: string;
  line: number | undefined;
  /** As written, `data` expanded; secrets stay `{ env }` references. */
  spec: Record<string, unknown>;
}

/** A declared dialer pool: nothing on the service, so not a ResourceEntry; jobs read it from here. */
export interface PoolEntry {
  name: string;
  file: string;
  line: number | undefined;
  spec: DialerPool;
  /** The line of a path in the document (`spec.pool.1.resource`), for problems found after loading. */
  lineOf: (path: string) => number | undefined;
}

export interface LoadedResources {
  resources: ResourceEntry[];
  pools: PoolEntry[];
  /** Each pool not kept, by name: its problems (a job naming it says them). */
  badPools: Map<string, JobProblem[]>;
  problems: JobProblem[];
}

const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** The API schema a composed record must pass, and placeholders for what vcw fills in. */
const API_CHECK: Record<ResourceKind, { schema: z.ZodType; fill: Record<string, unknown> }> = {
  assistant: { schema: AssistantCreate, fill: { name: "resource" } },
  knowledgeBase: { schema: KnowledgeBaseCreate, fill: { title: "resource" } },
  dialer: { schema: DialerCreate, fill: { name: "resource" } },
};

/**
 * Reads and validates every *.yaml / *.yml in `dir` (multi-document): each document by the
 * resource schema, then the composed record by the client's own schema; every problem with its
 * file, line and path. `env`: secrets named there must be set (apply); omit it to skip (a plan).
 */
export async function loadResources(dir: string, env?: NodeJS.ProcessEnv): Promise<LoadedResources> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((f) => /\.ya?ml$/.test(f)).sort();
  const out: LoadedResources = { resources: [], pools: [], badPools: new Map(), problems: [] };
  for (const name of names) await loadFile(join(dir, name), out, env);
  checkNamesAndRefs(out);
  checkPools(out);
  return out;
}

async function loadFile(file: string, out: LoadedResources, env: NodeJS.ProcessEnv | undefined) {
  if ((await stat(file)).size > MAX_FILE_BYTES) {
    out.problems.push({
      file,
      path: "",
      message: `larger than ${MAX_FILE_BYTES} bytes: not a resource file`,
    });
    return;
  }
  const lines = new LineCounter();
  const docs = parseAllDocuments(await readFile(file, "utf8"), { lineCounter: lines, prettyErrors: false });
  if (!Array.isArray(docs)) return; // an empty file
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      for (const e of doc.errors)
        out.problems.push({ file, path: "", line: lines.linePos(e.pos[0]).line, message: e.message });
      continue;
    }
    if (doc.contents === null) continue;
    const read = documentValue(doc, file, lines);
    if ("problem" in read) {
      out.problems.push(read.problem);
      continue;
    }
    const parsed = ResourceDocument.safeParse(read.value);
    if (!parsed.success) {
      out.problems.push(...zodProblems(file, doc, lines, parsed.error.issues));
      continue;
    }
    const line = doc.range ? lines.linePos(doc.range[0]).line : undefined;
    if (parsed.data.kind === "dialerPool") {
      const lineOf = (path: string) => {
        const node = doc.getIn(path.split("."), true) as { range?: [number, number] } | undefined;
        return node?.range ? lines.linePos(node.range[0]).line : line;
      };
      out.pools.push({ name: parsed.data.name, file, line, spec: parsed.data.spec, lineOf });
      continue;
    }
    const { kind, name } = parsed.data;
    const spec: Record<string, unknown> = { ...parsed.data.spec };
    const problems: JobProblem[] = [];
    if (kind === "knowledgeBase" && !Array.isArray(spec.data)) {
      const csv = resolve(dirname(file), (spec.data as { csv: string }).csv);
      const read = await readQuestionAnswers(csv);
      problems.push(...read.problems);
      spec.data = read.pairs;
    }
    if (problems.length === 0) {
      const composed = { ...withPlaceholders(kind, spec), ...API_CHECK[kind].fill };
      const check = API_CHECK[kind].schema.safeParse(composed);
      if (!check.success) {
        const issues = check.error.issues.map((i) => ({ ...i, path: ["spec", ...i.path] }));
        problems.push(...zodProblems(file, doc, lines, issues));
      }
    }
    if (kind === "dialer" && env) problems.push(...missingSecrets(file, doc, lines, spec, env));
    out.problems.push(...problems);
    if (problems.length === 0) out.resources.push({ kind, name, file, line, spec });
  }
}

/** References and secrets replaced by values of the right type, to check the rest of the record. */
function withPlaceholders(kind: ResourceKind, spec: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...spec };
  if (kind === "assistant" && typeof copy.knowledge_base_Id === "object") copy.knowledge_base_Id = "resource";
  if (kind === "dialer") for (const f of SECRET_FIELDS) if (copy[f] !== undefined) copy[f] = "secret";
  return copy;
}

function missingSecrets(
  file: string,
  doc: Parameters<typeof zodProblems>[1],
  lines: LineCounter,
  spec: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): JobProblem[] {
  const missing = SECRET_FIELDS.filter((f) => spec[f] !== undefined && !env[(spec[f] as EnvRef).env]);
  return zodProblems(
    file,
    doc,
    lines,
    missing.map((f) => ({
      code: "custom" as const,
      input: undefined,
      path: ["spec", f],
      message: `environment variable ${(spec[f] as EnvRef).env} is not set`,
    })),
  );
}

function checkNamesAndRefs(out: LoadedResources): void {
  const seen = new Map<string, ResourceEntry>();
  out.resources = out.resources.filter((r) => {
    const other = seen.get(`${r.kind}/${r.name}`);
    if (other) {
      out.problems.push({
        file: r.file,
        line: r.line,
        path: "name",
        message: `${r.kind} "${r.name}" is also declared in ${other.file}${other.line ? `:${other.line}` : ""}`,
      });
      return false;
    }
    seen.set(`${r.kind}/${r.name}`, r);
    return true;
  });
  for (const r of out.resources) {
    const ref = r.kind === "assistant" ? r.spec.knowledge_base_Id : undefined;
    if (
      typeof ref === "object" &&
      ref &&
      !seen.has(`knowledgeBase/${(ref as { resource: string }).resource}`)
    ) {
      out.problems.push({
        file: r.file,
        line: r.line,
        path: "spec.knowledge_base_Id.resource",
        message: `no knowledgeBase named "${(ref as { resource: string }).resource}" in the resource files`,
      });
    }
  }
}

/** Pools declared twice, or naming a dialer resource the files do not declare: not kept. */
function checkPools(out: LoadedResources): void {
  const dialers = new Set(out.resources.filter((r) => r.kind === "dialer").map((r) => r.name));
  const seen = new Map<string, PoolEntry>();
  out.pools = out.pools.filter((p) => {
    const other = seen.get(p.name);
    const problems: JobProblem[] = other
      ? [
          {
            file: p.file,
            line: p.line,
            path: "name",
            message: `dialerPool "${p.name}" is also declared in ${other.file}${other.line ? `:${other.line}` : ""}`,
          },
        ]
      : [];
    for (const [i, d] of p.spec.pool.entries())
      if ("resource" in d && !dialers.has(d.resource))
        problems.push({
          file: p.file,
          line: p.lineOf(`spec.pool.${i}.resource`),
          path: `spec.pool.${i}.resource`,
          message: `no dialer named "${d.resource}" in the resource files`,
        });
    out.problems.push(...problems);
    if (!other) seen.set(p.name, p);
    if (problems.length > 0) out.badPools.set(p.name, problems);
    return problems.length === 0;
  });
}
