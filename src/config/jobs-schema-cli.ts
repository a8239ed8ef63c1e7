import { writeFileSync } from "node:fs";
import { jobJsonSchema } from "./job-definition.ts";

/** `npm run jobs:schema`: writes jobs/schema.json from the zod schema. */
const out = process.argv[2] ?? "jobs/schema.json";
writeFileSync(out, `${JSON.stringify(jobJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);
