import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jobJsonSchema } from "./job-definition.ts";
import { sinksJsonSchema } from "./sink-definition.ts";

/** `npm run jobs:schema`: writes jobs/schema.json and jobs/sinks.schema.json from the zod schemas. */
const dir = process.argv[2] ?? "jobs";
for (const [name, schema] of [
  ["schema.json", jobJsonSchema()],
  ["sinks.schema.json", sinksJsonSchema()],
] as const) {
  const out = join(dir, name);
  writeFileSync(out, `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote ${out}`);
}
