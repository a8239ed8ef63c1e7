#!/usr/bin/env node
/**
 * `node scripts/function-sizes.mjs [DIR] [--top N] [--json]`: the largest functions of DIR/src by
 * their own lines (a function's span, first to last line, less the spans of the functions nested
 * in it), and the largest files. The measure of issue 18's "no function longer than about 80 lines
 * of its own". Reads the sources with @babel/parser (TypeScript 7 has no stable JS API); runs nothing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parse } from "@babel/parser";

const { values, positionals } = parseArgs({
  options: { top: { type: "string", default: "15" }, json: { type: "boolean", default: false } },
  allowPositionals: true,
});
const root = resolve(positionals[0] ?? ".");
const top = Number(values.top);

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) yield path;
  }
}

const FUNCTION_TYPES = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
  "ClassMethod",
  "ClassPrivateMethod",
  "ObjectMethod",
]);

/** A readable name: its own, the variable or property it is assigned to, or the call it is passed to. */
function nameOf(n, parent) {
  if (n.id?.name) return n.id.name;
  if (n.key) return n.key.name ?? n.key.value ?? "(computed)";
  if (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier") return parent.id.name;
  if (parent?.type === "ObjectProperty" || parent?.type === "ClassProperty")
    return parent.key.name ?? parent.key.value ?? "(computed)";
  if (parent?.type === "CallExpression") {
    const callee = parent.callee;
    const called = callee.type === "MemberExpression" ? callee.property.name : callee.name;
    return `(passed to ${called ?? "a call"})`;
  }
  return "(anonymous)";
}

const functions = [];
const files = [];
for (const path of sources(join(root, "src"))) {
  const text = readFileSync(path, "utf8");
  const file = relative(root, path);
  files.push({ file, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0) });
  const ast = parse(text, { sourceType: "module", plugins: ["typescript"] });
  const visit = (node, parent, enclosing) => {
    if (!node || typeof node.type !== "string") return;
    let inner = enclosing;
    if (FUNCTION_TYPES.has(node.type)) {
      const span = node.loc.end.line - node.loc.start.line + 1;
      inner = { file, name: nameOf(node, parent), line: node.loc.start.line, span, own: span };
      if (enclosing) enclosing.own -= span;
      functions.push(inner);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "loc" || key === "start" || key === "end" || key.endsWith("Comments")) continue;
      if (Array.isArray(value)) for (const v of value) visit(v, node, inner);
      else if (value && typeof value.type === "string") visit(value, node, inner);
    }
  };
  visit(ast.program, undefined, undefined);
}

functions.sort((a, b) => b.own - a.own);
files.sort((a, b) => b.lines - a.lines);
const result = {
  root,
  functions: functions.slice(0, top),
  overEighty: functions.filter((f) => f.own > 80).length,
  files: files.slice(0, top),
};
if (values.json) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`Largest functions by own lines (${root}/src):`);
  for (const f of result.functions)
    console.log(`${String(f.own).padStart(5)}  ${f.name}  ${f.file}:${f.line}`);
  console.log(`functions over 80 own lines: ${result.overEighty}`);
  console.log("\nLargest files (lines):");
  for (const f of result.files) console.log(`${String(f.lines).padStart(5)}  ${f.file}`);
}
