import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, SRC, sources } from "./support/source-imports.ts";

/**
 * Issue 44 item 6: no import circle between files (type imports count: a reader follows them as
 * well), and no two rooms that import each other (top-level folders, and the rooms of pipeline/).
 * The arrows themselves are test/architecture.test.ts's.
 */
/** Each file under src/ and the files it imports, as paths under src/. */
function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(SRC)) graph.set(relative(SRC, file), new Set(importsOf(file)));
  return graph;
}

/** The strongly connected parts of more than one node (Tarjan's algorithm): each an import circle. */
function circles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1) found.push(part.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Pairs of rooms that import each other; a room is `roomOf(file)`, files outside any room skipped. */
function mutualRooms(
  graph: ReadonlyMap<string, ReadonlySet<string>>,
  roomOf: (path: string) => string | undefined,
) {
  const arrows = new Set<string>();
  for (const [from, tos] of graph)
    for (const to of tos) {
      const [a, b] = [roomOf(from), roomOf(to)];
      if (a && b && a !== b) arrows.add(`${a} -> ${b}`);
    }
  return [...arrows]
    .map((arrow) => arrow.split(" -> ") as [string, string])
    .filter(([a, b]) => a < b && arrows.has(`${b} -> ${a}`))
    .map(([a, b]) => `${a} <-> ${b}`);
}

describe("imports without circles", () => {
  const graph = importGraph();

  it("no file reaches itself through its imports", () => {
    expect(graph.size).toBeGreaterThan(300); // the scan sees the code
    expect(circles(graph)).toEqual([]);
  });

  it("no two top-level folders import each other", () => {
    const folder = (path: string) => (path.includes("/") ? path.split("/")[0] : undefined);
    expect(mutualRooms(graph, folder)).toEqual([]);
  });

  it("no two rooms of pipeline/ import each other", () => {
    const room = (path: string) => {
      const [top, inner, rest] = path.split("/");
      return top === "pipeline" && inner && rest !== undefined ? inner : undefined;
    };
    expect(mutualRooms(graph, room)).toEqual([]);
  });

  it("finds a circle and a mutual pair when there is one (the check itself)", () => {
    const made = new Map([
      ["a/x.ts", new Set(["b/y.ts"])],
      ["b/y.ts", new Set(["a/x.ts"])],
      ["c/z.ts", new Set(["a/x.ts"])],
    ]);
    expect(circles(made)).toEqual([["a/x.ts", "b/y.ts"]]);
    expect(mutualRooms(made, (p) => p.split("/")[0])).toEqual(["a <-> b"]);
  });
});
