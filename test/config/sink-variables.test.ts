import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SINK_VARIABLE_FIELDS, SinkDefinition } from "../../src/config/sink-definition.ts";
import { cliEnv, runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";

/** A job sending its summaries and reports to an e-mail sink. */
function mailJob(home: string): { jobs: string; job: string; sinks: string } {
  const jobs = join(home, "jobs");
  mkdirSync(jobs, { recursive: true });
  const job = join(jobs, "mailed.yaml");
  writeFileSync(
    job,
    `name: mailed\ninbox: ${join(home, "inbox")}\nsegment: { name: mailed }\ncontacts: { country: US }\nsummaries: { sinks: mail }\nreports: [{ cron: "0 8 * * *", period: day, sinks: [mail] }]\n`,
  );
  const sinks = join(jobs, "sinks.yaml");
  writeFileSync(
    sinks,
    "sinks:\n  mail: { type: email, urlEnv: VCW_TEST_MAIL_URL, from: vcw@example.com, to: [manager@example.com] }\n",
  );
  return { jobs, job, sinks };
}

describe("every sink's variables are checked before anything starts", () => {
  it("each *Env field of every sink type is one vcw checks", () => {
    for (const option of SinkDefinition.options) {
      const type = (option.shape.type as unknown as { value: string }).value;
      const envFields = Object.keys(option.shape).filter((k) => k.endsWith("Env"));
      expect(Object.keys(SINK_VARIABLE_FIELDS[type] ?? {}), type).toEqual(envFields);
    }
  });

  it("vcw jobs check and vcw start fail on an e-mail sink whose urlEnv is unset, naming the file, sink, variable and job", async () => {
    const home = tempDir("vcw-sinkvars-");
    const { jobs, job, sinks } = mailJob(home);
    const expected = `${sinks}: sinks.mail.urlEnv: the environment variable VCW_TEST_MAIL_URL (its SMTP URL) is not set: sink "mail" could not deliver; jobs sending to it: mailed (${job})`;
    const check = await runCli(["jobs", "check", jobs], { VCW_TEST_MAIL_URL: "" });
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`fail ${expected}`);
    const env = cliEnv(home, "", { VCS_BASE_URL: "", VCW_TEST_MAIL_URL: "" });
    for (const round of [1, 2]) {
      const start = await runCli(["start"], env, 30_000);
      expect(start.code, `round ${round}`).toBe(1);
      expect(start.stderr).toContain(expected);
      expect(start.stderr).not.toContain("embedded simulator started");
    }
  }, 120_000);

  it("a URL variable that can't be one (no smtp:// scheme) is refused without echoing it; a good one passes", async () => {
    const home = tempDir("vcw-sinkvars-");
    const { jobs } = mailJob(home);
    const bad = await runCli(["jobs", "check", jobs], {
      VCW_TEST_MAIL_URL: "mailuser:Pa55word@mail.example.com:587",
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("VCW_TEST_MAIL_URL (its SMTP URL) does not hold a smtp:// or smtps:// URL");
    expect(bad.stdout + bad.stderr).not.toMatch(/pa55word/i);
    const good = await runCli(["jobs", "check", jobs], {
      VCW_TEST_MAIL_URL: "smtps://mailuser:Pa55word@mail.example.com:465",
    });
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout + good.stderr).not.toMatch(/pa55word/i);
  }, 120_000);
});
