import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jobJsonSchema } from "./job-definition.ts";
import { serviceJsonSchema } from "./service-profile.ts";
import { sinksJsonSchema } from "./sink-definition.ts";

/** `npm run jobs:schema`: writes jobs/schema.json, sinks.schema.json and service.schema.json from the zod schemas. */
const dir = process.argv[2] ?? "jobs";
for (const [name, schema] of [
  ["schema.json", jobJsonSchema()],
  ["sinks.schema.json", sinksJsonSchema()],
  ["service.schema.json", serviceJsonSchema()],
] as const) {
  const out = join(dir, name);
  writeFileSync(out, `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote ${out}`);
}
