import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The source tree read as text, for the tests that guard its imports (test/architecture.test.ts,
 * test/import-circles.test.ts): one reading of an import, so the two cannot disagree on it.
 */
export const SRC = resolve(import.meta.dirname, "../../src");

/**
 * A relative import or re-export (type ones too), static, dynamic or for its side effects alone
 * (`import "./x.ts"`): the path in group 1, 2 or 3.
 */
export const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*"(\.{1,2}\/[^"]+)"|import\(\s*"(\.{1,2}\/[^"]+)"\s*\)|(?:^|\n)\s*import\s*"(\.{1,2}\/[^"]+)"/g;

/** Every .ts file below `dir`, as absolute paths. */
export function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** What the file at `file` (an absolute path) imports, as paths under src/. */
export function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) =>
    relative(SRC, resolve(dirname(file), m[1] ?? m[2] ?? m[3]!)),
  );
}
