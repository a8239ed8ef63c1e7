import { writeFileSync } from "node:fs";
import { openApiYaml } from "./openapi.ts";

/** `npm run openapi`: writes the OpenAPI document (default docs/openapi.yaml). */
const out = process.argv[2] ?? "docs/openapi.yaml";
writeFileSync(out, openApiYaml());
console.log(`wrote ${out}`);
