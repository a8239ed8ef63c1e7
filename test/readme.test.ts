import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const DOCS = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => join("docs", f));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

/** Relative links of a Markdown file, outside code blocks. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((l) => !/^(https?:|mailto:)/.test(l));
}

describe("the README a newcomer reads in five minutes (issue 40)", () => {
  it("is at most 250 lines, with a table of contents whose every entry is a heading", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(250);
    const headings = new Set([...README.matchAll(/^#{2,3} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
    const contents = README.slice(
      README.indexOf("## Contents"),
      README.indexOf("\n## ", README.indexOf("## Contents") + 1),
    );
    const anchors = [...contents.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(anchors.length).toBeGreaterThanOrEqual(4);
    for (const a of anchors) expect(headings, a).toContain(a);
  });

  it("states the test command CI runs", () => {
    const ci = readFileSync(join(ROOT, ".ci", "run"), "utf8")
      .trim()
      .split("\n")
      .at(-1);
    expect(ci).toBe("npm test");
    expect(README).toContain("```sh\nnpm test\n```");
  });

  it("links only to files that exist, as every document under docs/ does", () => {
    for (const file of ["README.md", ...DOCS]) {
      for (const link of linksOf(readFileSync(join(ROOT, file), "utf8"))) {
        const target = resolve(ROOT, dirname(file), link.split("#")[0]!);
        expect(existsSync(target), `${file} -> ${link}`).toBe(true);
      }
    }
  });
});
