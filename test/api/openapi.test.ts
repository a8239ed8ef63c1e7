import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { operations } from "../../src/api/index.ts";
import { openApiYaml } from "../../src/api/openapi.ts";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { ResourceDocument } from "../../src/config/resource-definition.ts";
import { SinksFile } from "../../src/config/sink-definition.ts";

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

  it("holds the API's schemas only, whatever else the process loaded with an id (the config files')", () => {
    const loaded = [JobDefinition, ResourceDocument, SinksFile].map((s) => s.meta()?.id);
    expect(loaded).toEqual(["JobDefinition", "ResourceDocument", "SinksFile"]);
    const names = Object.keys(parse(openApiYaml()).components.schemas);
    for (const id of loaded) expect(names).not.toContain(id);
  });
});
