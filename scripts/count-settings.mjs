// What a user may set, counted: the leaves of the job schema (jobs/schema.json: a property whose
// schema, through $ref, anyOf/oneOf/allOf and array items, holds no further properties) and the
// environment variables of each table of docs/configuration.md. `node scripts/count-settings.mjs [--list]`.
import { readFileSync } from "node:fs";

const schema = JSON.parse(readFileSync("jobs/schema.json", "utf8"));
const deref = (s) =>
  s?.$ref
    ? deref(
        s.$ref
          .split("/")
          .slice(1)
          .reduce((n, k) => n[k], schema),
      )
    : s;
const leaves = new Set();
function walk(s, path, seen = new Set()) {
  s = deref(s);
  if (!s || typeof s !== "object" || seen.has(s)) return false;
  seen = new Set(seen).add(s);
  let inner = false;
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    inner = true;
    const at = path ? `${path}.${k}` : k;
    if (!walk(v, at, seen)) leaves.add(at);
  }
  for (const key of ["anyOf", "oneOf", "allOf"])
    for (const o of s[key] ?? []) if (walk(o, path, seen)) inner = true;
  if (s.items && walk(s.items, `${path}[]`, seen)) inner = true;
  const extra = s.additionalProperties;
  if (extra && typeof extra === "object" && walk(extra, `${path}.*`, seen)) inner = true;
  return inner;
}
walk(schema, "");
console.log(`job settings (leaves of jobs/schema.json): ${leaves.size}`);
if (process.argv.includes("--list")) for (const l of [...leaves].sort()) console.log(`  ${l}`);

for (const section of readFileSync("docs/configuration.md", "utf8").split("\n## ")) {
  const names = new Set(
    section
      .split("\n")
      .filter((l) => l.startsWith("| `"))
      .flatMap((l) => [...l.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])),
  );
  if (names.size > 0) console.log(`variables, ${section.split("\n")[0].replace(/^# /, "")}: ${names.size}`);
}
