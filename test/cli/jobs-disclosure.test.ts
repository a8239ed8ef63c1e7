import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY, validAssistant } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

const job = (name: string, assistant: string, extra = "") =>
  `name: ${name}\ninbox: inbox/${name}\nsegment: { name: s }\ncampaign:\n  assistant: ${assistant}\n  dialer: { id: dlr_1 }\n${extra}`;

describe("vcw jobs check: the assistant says the call is automated or AI", () => {
  const t = useSimulator();

  it("warns of a service assistant without it, citing the rule; passes one with it; jobs still check ok", async () => {
    await t.client.assistants.create(
      validAssistant({ name: "Plain", start_speech: "Hi, this is Ava from Acme." }),
    );
    await t.client.assistants.create(
      validAssistant({ name: "Honest", start_speech: "Hi, this is Ava, an AI assistant calling for Acme." }),
    );
    const home = tempDir("vcw-disclosure-");
    const jobs = join(home, "jobs");
    mkdirSync(jobs);
    writeFileSync(join(jobs, "plain.yaml"), job("plain", "{ name: Plain }"));
    writeFileSync(join(jobs, "honest.yaml"), job("honest", "{ name: Honest }"));
    writeFileSync(
      join(jobs, "spanish.yaml"),
      job("spanish", "{ name: Honest }", "calling:\n  disclosure:\n    phrases: [asistente virtual]\n"),
    );
    const env = { VCS_BASE_URL: t.sim.url, VCS_API_KEY: API_KEY, VCW_RESOURCES_DIR: join(home, "none") };
    const r = await runCli(["jobs", "check", jobs], env);
    expect(r.code).toBe(0);
    const warnings = r.stderr.trim().split("\n");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /^warn .*plain\.yaml: campaign\.assistant: assistant "Plain" does not say the call is automated or AI in its start_speech \("Hi, this is Ava from Acme\."; none of: the default phrases\)\. FCC 24-17 \(Feb 8 2024\)/,
    );
    expect(warnings[1]).toMatch(/^warn .*spanish\.yaml: .*"Honest".*none of: asistente virtual\)/);
    const json = JSON.parse((await runCli(["jobs", "check", jobs, "--json"], env)).stdout);
    expect(json.warnings.map((w: { job: string; kind: string }) => [w.job, w.kind])).toEqual([
      ["plain", "missing"],
      ["spanish", "missing"],
    ]);
  }, 60_000);

  it("reads an assistant resource offline, and says when it can't look", async () => {
    const home = tempDir("vcw-disclosure-");
    const jobs = join(home, "jobs");
    const resources = join(home, "resources");
    mkdirSync(jobs);
    mkdirSync(resources);
    const spec = validAssistant({ start_speech: "Hello {first_name}, this is Ava from Example Co." });
    writeFileSync(
      join(resources, "bot.yaml"),
      `kind: assistant\nname: bot\nspec: ${JSON.stringify({ ...spec, name: undefined })}\n`,
    );
    writeFileSync(join(jobs, "res.yaml"), job("res", "{ resource: bot }"));
    writeFileSync(join(jobs, "svc.yaml"), job("svc", "{ id: ast_1 }"));
    writeFileSync(join(jobs, "gone.yaml"), job("gone", "{ resource: nobody }"));
    const r = await runCli(["jobs", "check", jobs], { VCS_BASE_URL: "", VCW_RESOURCES_DIR: resources });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /note .*gone\.yaml: disclosure not checked: no assistant resource "nobody" in resources\//,
    );
    expect(r.stderr).toMatch(/warn .*res\.yaml: campaign\.assistant: assistant resource "bot" does not say/);
    expect(r.stderr).toMatch(
      /note .*svc\.yaml: disclosure not checked: the assistant is on the service, and VCS_BASE_URL is not set and no embedded simulator runs under .*\(offline\)/,
    );
  }, 60_000);
});
