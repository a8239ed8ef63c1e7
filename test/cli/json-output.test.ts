import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv, runCli } from "../support/cli.ts";
import { writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";

/** Nothing answers here: these commands need Redis and the job definitions, never the service. */
const NO_SERVICE = "http://127.0.0.1:9";

/** Runs `vcw ARGS --json` and reads its one line of output. */
async function json(args: string[], env: NodeJS.ProcessEnv) {
  const r = await runCli([...args, "--json"], env, 60_000);
  const lines = r.stdout.trim().split("\n");
  expect(lines, `stdout of vcw ${args.join(" ")}: ${r.stdout} / ${r.stderr}`).toHaveLength(1);
  return { code: r.code, stderr: r.stderr, out: JSON.parse(lines[0]!) };
}

describe("--json on the commands a script reads (issue 23)", () => {
  it("vcw pause, resume, cancel and retry print one JSON object; exit statuses are as without --json", async () => {
    const home = tempDir("vcw-json-");
    const env = cliEnv(home, NO_SERVICE);
    writeJob(join(home, "jobs"), "leads", join(home, "inbox"));

    const paused = await json(["pause", "leads"], env);
    expect(paused).toMatchObject({ code: 0, stderr: "" });
    expect(paused.out).toMatchObject({ action: { kind: "pause", job: "leads" }, ok: true, count: 1 });
    expect(paused.out.message).toMatch(/^job leads paused/);
    expect((await json(["pause", "leads"], env)).out).toMatchObject({ ok: true, count: 0 });
    expect((await json(["resume", "leads"], env)).out).toEqual({
      action: { kind: "resume", job: "leads" },
      ok: true,
      count: 1,
      message: "job leads resumed",
    });

    // Refused: the JSON still says why on stdout, and the status is 1 as it always was.
    const unknown = await json(["pause", "nobody"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toMatchObject({ ok: false, count: 0 });
    expect(unknown.out.message).toMatch(/no job "nobody"/);
    const cancel = await json(["cancel", "nothing-like-it.csv"], env);
    expect(cancel.code).toBe(1);
    expect(cancel.out).toMatchObject({
      action: { kind: "cancel", campaign: "nothing-like-it.csv" },
      ok: false,
    });
    const retry = await json(["retry", "deliveries", "no-such-id"], env);
    expect(retry.code).toBe(1);
    expect(retry.out).toMatchObject({ ok: false, message: "no deliveries job no-such-id" });
    expect((await json(["retry", "polls"], env)).out).toMatchObject({ ok: true, count: 0 });

    // Text stays the default.
    const text = await runCli(["resume", "leads"], env, 60_000);
    expect(text.stdout).toBe("job leads was not paused\n");
  }, 180_000);

  it("vcw suppress add and remove print one JSON object", async () => {
    const env = cliEnv(tempDir("vcw-json-"), NO_SERVICE);
    const added = await json(["suppress", "add", "415 555 0123", "+44 7911 123456", "--country", "US"], env);
    expect(added).toMatchObject({ code: 0, out: { added: 2, already: 0 } });
    expect((await json(["suppress", "add", "+14155550123"], env)).out).toEqual({ added: 0, already: 1 });
    expect((await json(["suppress", "remove", "+14155550123", "+12025550199"], env)).out).toEqual({
      removed: 1,
    });
  }, 120_000);
});
