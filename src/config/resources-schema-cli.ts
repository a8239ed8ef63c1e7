import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { resourceJsonSchema } from "./resource-definition.ts";

/** `npm run resources:schema`: writes resources/schema.json from the zod schemas. */
const out = join(process.argv[2] ?? "resources", "schema.json");
writeFileSync(out, `${JSON.stringify(resourceJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);
