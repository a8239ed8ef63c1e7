import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { operations } from "../../src/api/index.ts";
import { openApiYaml } from "../../src/api/openapi.ts";

describe("OpenAPI document", () => {
  it("docs/openapi.yaml is what the schemas generate (run `npm run openapi` after changing them)", () => {
    expect(readFileSync("docs/openapi.yaml", "utf8")).toBe(openApiYaml());
  });

  it("describes the 20 operations with their methods, the id parameter and the api key", () => {
    const doc = parse(openApiYaml());
    const ops = Object.values(operations);
    expect(ops).toHaveLength(20);
    for (const op of ops) {
      const entry = doc.paths[op.path][op.method.toLowerCase()];
      expect(entry.operationId).toBe(op.name);
      expect(Boolean(entry.parameters?.some((p: { name: string }) => p.name === "id"))).toBe(Boolean(op.id));
    }
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
    });
    expect(doc.components.schemas.AssistantCreate.properties.voice_speed.enum).toHaveLength(11);
    expect(doc.components.schemas.AssistantCreate.properties.temperature.enum).toHaveLength(14);
  });
});
