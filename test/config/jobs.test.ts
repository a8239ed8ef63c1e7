import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { jobJsonSchema } from "../../src/config/job-definition.ts";
import { formatProblem } from "../../src/config/job-problems.ts";
import { loadJobs } from "../../src/config/load-jobs.ts";
import { serviceJsonSchema } from "../../src/config/service-profile.ts";
import { sinksJsonSchema } from "../../src/config/sink-definition.ts";
import { validateFile } from "../../src/ingest/index.ts";
import { runCli } from "../support/cli.ts";
import { tempDir, writeFixture } from "../support/files.ts";

describe("job definitions", () => {
  it("the shipped example is valid, and its sample CSV reads with rows to import and rows to report", async () => {
    const { jobs, problems } = await loadJobs("jobs");
    expect(problems).toEqual([]);
    expect(jobs.map((j) => j.job.name)).toContain("example-leads");
    const example = jobs.find((j) => j.job.name === "example-leads")!.job;
    const out = `${tempDir()}/errors.csv`;
    const summary = await validateFile(
      "jobs/samples/example-leads.csv",
      { defaultCountry: example.contacts.country as "US" },
      { errorsPath: out },
    );
    expect(summary).toMatchObject({ total: 10, valid: 6, rejected: 3, duplicates: 1 });
  });

  it("jobs/schema.json is what the zod schema generates (run `npm run jobs:schema` after changing it)", () => {
    // Byte for byte, as the command writes them: running it leaves no change to commit.
    const written = (schema: unknown) => `${JSON.stringify(schema, null, 2)}\n`;
    expect(readFileSync("jobs/schema.json", "utf8")).toBe(written(jobJsonSchema()));
    expect(readFileSync("jobs/sinks.schema.json", "utf8")).toBe(written(sinksJsonSchema()));
    expect(readFileSync("jobs/service.schema.json", "utf8")).toBe(written(serviceJsonSchema()));
  });

  it("every problem comes with its file, line and path", async () => {
    const dir = tempDir("vcw-jobs-");
    writeFixture(
      dir,
      "a.yaml",
      "name: Bad Name\ninbox: inbox/a\nsegment:\n  colour: red\ncontacts:\n  country: XX\n  mapping:\n    telephone: Mobile\n",
    );
    writeFixture(dir, "b.yml", "name: b\ninbox: [unclosed\n");
    writeFixture(dir, "c.yaml", "name: c\ninbox: inbox/c\nsegment: { id: seg_1 }\n");
    writeFixture(dir, "d.yaml", "name: c\ninbox: inbox/d\nsegment: { name: D }\n");
    const { jobs, problems } = await loadJobs(dir);
    expect(jobs.map((j) => j.job.name)).toEqual(["c"]);
    const lines = problems.map(formatProblem);
    expect(lines).toContainEqual(
      expect.stringMatching(/a\.yaml:1: name: must be lower-case letters, digits and dashes/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/a\.yaml:\d+: segment: must be \{ name: \.\.\. \}/));
    expect(lines).toContainEqual(
      expect.stringMatching(/a\.yaml:6: contacts\.country: must be a two-letter country code/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/a\.yaml:8: contacts\.mapping: unknown field telephone/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/b\.yml:\d+: Flow sequence in block collection must be sufficiently indented/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/d\.yaml: name: job name "c" is also used by .*c\.yaml/),
    );
  });

  it("vcw jobs check: exit 0 for valid definitions, 1 with each error printed", async () => {
    const ok = await runCli(["jobs", "check"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /ok {3}jobs\/example-leads\.yaml \(example-leads: inbox\/example-leads -> segment "Example leads"\)/,
    );
    expect(ok.stdout).toMatch(/ok {3}jobs\/service\.yaml \(service profile\)/);

    const dir = tempDir("vcw-jobs-");
    writeFixture(dir, "bad.yaml", "name: x\ninbox: inbox/x\n");
    const bad = await runCli(["jobs", "check", dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/fail .*bad\.yaml.*segment: must be/);
  });

  it("vcw jobs check: a bad service.yaml fails with its file and line; a job's own statuses warn", async () => {
    const dir = tempDir("vcw-jobs-");
    writeFixture(dir, "service.yaml", "statuses:\n  final: []\n");
    writeFixture(dir, "a.yaml", "name: a\ninbox: inbox/a\nsegment: { id: seg_1 }\n");
    const bad = await runCli(["jobs", "check", dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/fail .*service\.yaml:2: statuses\.final: /);
    expect(bad.stderr).toMatch(
      /fail .*a\.yaml: not loaded: the service profile .*service\.yaml has a problem/,
    );
    expect(bad.stdout).not.toMatch(/ok /);

    writeFixture(dir, "service.yaml", "inFlight: [talking]\n");
    writeFixture(
      dir,
      "a.yaml",
      "name: a\ninbox: inbox/a\nsegment: { id: seg_1 }\npolling:\n  inFlight: [ringing]\n",
    );
    const warned = await runCli(["jobs", "check", dir]);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toMatch(/ok {3}.*service\.yaml \(service profile\)/);
    expect(warned.stderr).toMatch(
      /warn .*a\.yaml:5: polling\.inFlight: describes the calling service, not the job: set it in .*service\.yaml \(this job's value still applies to it\)/,
    );
    const json = JSON.parse((await runCli(["jobs", "check", dir, "--json"])).stdout);
    expect(json.service).toMatch(/service\.yaml$/);
    expect(json.warnings.map((w: { job: string; kind: string }) => [w.job, w.kind])).toContainEqual([
      "a",
      "service_setting",
    ]);
  });

  it("campaign.variants: each problem named with its file and field, vcw jobs check prints them", async () => {
    const dir = tempDir("vcw-jobs-");
    const head = "inbox: inbox/x\nsegment: { id: seg_1 }\ncampaign:\n  dialer: { id: d1 }\n";
    writeFixture(
      dir,
      "one.yaml",
      `name: one\n${head}  variants:\n    - { name: a, assistant: { id: a1 }, share: 1 }\n`,
    );
    writeFixture(
      dir,
      "bad.yaml",
      `name: bad\n${head}  variants:\n    - { name: a, assistant: { id: a1 }, share: 0 }\n    - { name: a, assistant: { nick: x }, share: 1 }\n    - { name: B!, assistant: { id: a3 }, share: 1 }\n`,
    );
    writeFixture(
      dir,
      "both.yaml",
      `name: both\n${head}  assistant: { id: a0 }\n  variants:\n    - { name: a, assistant: { id: a1 }, share: 1 }\n    - { name: b, assistant: { resource: warm }, share: 2 }\n`,
    );
    writeFixture(dir, "none.yaml", `name: none\n${head}`);
    writeFixture(
      dir,
      "good.yaml",
      `name: good\n${head}  variants:\n    - { name: a, assistant: { id: a1 }, share: 1 }\n    - { name: b, assistant: { resource: warm }, share: 2 }\n`,
    );
    const { jobs, problems } = await loadJobs(dir);
    expect(jobs.map((j) => j.job.name)).toEqual(["good"]);
    const good = jobs[0]!.job.campaign!;
    expect(good.variants?.map((v) => [v.name, v.share])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(good.assistant).toEqual({ id: "a1" });
    const lines = problems.map(formatProblem);
    expect(lines).toContainEqual(
      expect.stringMatching(/one\.yaml:\d+: campaign\.variants: must name at least two variants/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/bad\.yaml:\d+: campaign\.variants\.0\.share: must be a positive weight/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/bad\.yaml:\d+: campaign\.variants\.1\.assistant: must be/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/bad\.yaml:\d+: campaign\.variants\.2\.name: must be lower-case/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/both\.yaml:\d+: campaign\.assistant: names an assistant besides variants/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/none\.yaml:\d+: campaign\.assistant: is required/));
    const cli = await runCli(["jobs", "check", dir]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/fail .*bad\.yaml.*campaign\.variants\.0\.share: must be a positive weight/);
  });

  it("a job that names an unknown sink is not loaded: it would add a failed delivery every tick", async () => {
    const dir = tempDir("vcw-jobs-");
    writeFixture(
      dir,
      "typo.yaml",
      "name: typo\ninbox: inbox/typo\nsegment: { id: seg_1 }\nsummaries: { sinks: [slak] }\n",
    );
    writeFixture(dir, "fine.yaml", "name: fine\ninbox: inbox/fine\nsegment: { id: seg_1 }\n");
    const { jobs, problems } = await loadJobs(dir);
    expect(jobs.map((j) => j.job.name)).toEqual(["fine"]);
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(/typo\.yaml: summaries\.sinks\.0: no sink named "slak" .*the job is not loaded/),
    ]);
  });

  it("a sink named like an object's own property is a sink like any other, or none (issue 43)", async () => {
    const job = (name: string) =>
      `name: ${name}\ninbox: inbox/${name}\nsegment: { id: seg_1 }\nsummaries: { sinks: [constructor] }\n`;
    const none = tempDir("vcw-jobs-");
    writeFixture(none, "a.yaml", job("a"));
    const undefinedSink = await loadJobs(none);
    expect(undefinedSink.jobs).toEqual([]);
    expect(undefinedSink.problems.map(formatProblem)).toEqual([
      expect.stringMatching(
        /a\.yaml: summaries\.sinks\.0: no sink named "constructor" .*the job is not loaded/,
      ),
    ]);
    const defined = tempDir("vcw-jobs-");
    writeFixture(defined, "sinks.yaml", "sinks:\n  constructor: { type: log }\n");
    writeFixture(defined, "b.yaml", job("b"));
    const { jobs, sinks } = await loadJobs(defined);
    expect(jobs.map((j) => j.job.name)).toEqual(["b"]);
    expect(sinks.constructor).toEqual({ type: "log" });
  });
});
