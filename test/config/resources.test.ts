import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem } from "../../src/config/job-problems.ts";
import { loadResources } from "../../src/config/load-resources.ts";
import { resourceJsonSchema } from "../../src/config/resource-definition.ts";
import { tempDir } from "../support/files.ts";
import { assistantYaml, dialerYaml, kbYaml, writeResources } from "../support/resources.ts";

const ENV = { TEST_DIALER_TOKEN: "tok-SECRET-123" };

describe("resource files", () => {
  it("resources/schema.json is what the zod schema generates (run `npm run resources:schema`)", () => {
    // Byte for byte: the command leaves the committed file as it is (it was reformatted by hand once).
    expect(readFileSync("resources/schema.json", "utf8")).toBe(
      `${JSON.stringify(resourceJsonSchema(), null, 2)}\n`,
    );
  });

  it("the example resources load, the knowledge base's pairs from its CSV", async () => {
    const loaded = await loadResources("resources", { MAIN_LINE_TOKEN: "x" });
    expect(loaded.problems).toEqual([]);
    expect(loaded.resources.map((r) => `${r.kind}/${r.name}`)).toEqual([
      "knowledgeBase/support-faq",
      "assistant/support-bot",
      "dialer/main-line",
    ]);
    expect((loaded.resources[0]!.spec.data as unknown[]).length).toBe(3);
  });

  it("every problem says its file, line and path; the client's rules apply; no secret is echoed", async () => {
    const dir = tempDir();
    writeResources(dir, [
      kbYaml("faq"),
      assistantYaml("bot", "Goal.", "missing-kb").replace("voice_speed: 1.2", "voice_speed: 3"),
      dialerYaml("line").replace("{ env: TEST_DIALER_TOKEN }", "tok-SECRET-123"),
      "kind: dialer\nname: line\nspec: { dialer_type: sip, phone_number: '+14155550100', sid: x, auth_token: { env: NOPE_UNSET } }\n",
      "kind: robot\nname: x\nspec: {}\n",
      assistantYaml("bot2").replace("goal: Confirm the appointment.", "goal: Confirm.\n  name: Ava"),
    ]);
    const problems = (await loadResources(dir, ENV)).problems.map(formatProblem);
    const file = join(dir, "all.yaml");
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${file}:\\d+: spec.voice_speed: must be one of 1, 1.1`)),
        expect.stringMatching(
          /:\d+: spec.auth_token: must be \{ env: VARIABLE \}: a secret is never written in a file$/,
        ),
        expect.stringMatching(/:\d+: spec.sip_termination_uri: is required when dialer_type is sip$/),
        expect.stringMatching(/:\d+: spec.auth_token: environment variable NOPE_UNSET is not set$/),
        expect.stringMatching(/:\d+: kind: must be one of knowledgeBase, dialer, assistant, dialerPool$/),
        expect.stringMatching(/:\d+: spec: unknown field name$/),
      ]),
    );
    expect(problems.join("\n")).not.toContain("tok-SECRET-123");
  });

  it("names a knowledge base that is not declared, a name used twice, and a bad CSV by row", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "faq.csv"), "Question,Answer\nWhere?,Here.\nWhen?,\n");
    writeResources(dir, [
      "kind: knowledgeBase\nname: faq\nspec: { language: en, data: { csv: faq.csv } }\n",
      assistantYaml("bot", "Goal.", "other"),
      dialerYaml("line"),
      dialerYaml("line"),
    ]);
    const problems = (await loadResources(dir, ENV)).problems.map(formatProblem);
    expect(problems).toEqual(
      expect.arrayContaining([
        `${join(dir, "faq.csv")}:3: answer: must not be empty`,
        expect.stringMatching(
          /all.yaml:\d+: spec.knowledge_base_Id.resource: no knowledgeBase named "other"/,
        ),
        expect.stringMatching(/all.yaml:\d+: name: dialer "line" is also declared in .*all.yaml:\d+$/),
      ]),
    );
  });
});
