import { readFile, stat } from "node:fs/promises";
import Papa from "papaparse";
import type { JobProblem } from "./job-problems.ts";

const MAX_BYTES = 5 * 1024 * 1024;

export interface QuestionAnswers {
  pairs: { question: string; answer: string }[];
  problems: JobProblem[];
}

/** A knowledge base's pairs from a CSV with `question` and `answer` columns (any case, any order). */
export async function readQuestionAnswers(file: string): Promise<QuestionAnswers> {
  const size = await stat(file).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined) return fail(file, "no such file (a CSV of question and answer columns)");
  if (size > MAX_BYTES) return fail(file, `larger than ${MAX_BYTES} bytes: too large for a knowledge base`);
  const parsed = Papa.parse<Record<string, string>>((await readFile(file, "utf8")).replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  const problems: JobProblem[] = parsed.errors.map((e) => ({
    file,
    path: "",
    line: e.row === undefined ? undefined : e.row + 2,
    message: e.message,
  }));
  const columns = parsed.meta.fields ?? [];
  const absent = ["question", "answer"].filter((c) => !columns.includes(c));
  if (absent.length > 0)
    return fail(file, `no ${absent.join(" or ")} column (columns: ${columns.join(", ")})`);
  const pairs: QuestionAnswers["pairs"] = [];
  parsed.data.forEach((row, i) => {
    const question = (row.question ?? "").trim();
    const answer = (row.answer ?? "").trim();
    for (const [field, value] of [
      ["question", question],
      ["answer", answer],
    ] as const) {
      if (!value) problems.push({ file, path: field, line: i + 2, message: "must not be empty" });
    }
    pairs.push({ question, answer });
  });
  if (pairs.length === 0) problems.push({ file, path: "", message: "holds no question/answer pair" });
  return { pairs, problems };
}

const fail = (file: string, message: string): QuestionAnswers => ({
  pairs: [],
  problems: [{ file, path: "", message }],
});
