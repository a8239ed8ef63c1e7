import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempDir, writeFixture } from "../support/files.ts";

describe("vcw suppress import", () => {
  const env = () => ({
    REDIS_URL: inject("redisUrl"),
    VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}`,
  });
  const dir = tempDir("vcw-dnc-cli-");

  it("loads an FTC extract, lists it, checks numbers against it, and a re-import replaces it", async () => {
    const e = env();
    const ftc = writeFixture(dir, "ftc-212.txt", "212,5550100\n212,5550101\n305,5550102\n");
    const first = await runCli(["suppress", "import", ftc, "--source", "ftc"], e);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^ftc: 3 numbers from .*ftc-212\.txt \(3 lines\)\n {2}in force now\n {2}expires \d{4}-\d\d-\d\d/,
    );
    const listed = await runCli(["suppress", "list", "--sources", "--json"], e);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { source: "ftc", numbers: 3, file: "ftc-212.txt", invalid: 0 },
    ]);
    const contact = await runCli(["contact", "+12125550100", "--json"], e);
    expect(JSON.parse(contact.stdout)).toMatchObject({ suppressed: true, doNotCall: "ftc" });
    expect((await runCli(["contact", "+13055550102"], e)).stdout).toMatch(
      /opted out {2}no\n {2}do-not-call list "ftc" \(vcw suppress list\)\n/,
    );

    const again = writeFixture(dir, "ftc-new.txt", "Area Code,Phone Number\n212,5550101\n");
    const second = await runCli(["suppress", "import", again, "--source", "ftc", "--expires", "never"], e);
    expect(second.stdout).toMatch(
      /ftc: 1 numbers .*\n {2}in force now, replacing 3 numbers .* from ftc-212\.txt\n {2}never expires/,
    );
    expect(JSON.parse((await runCli(["contact", "+12125550100", "--json"], e)).stdout)).toMatchObject({
      suppressed: false,
    });
    // The opt-out list is printed as before; the do-not-call lists come first when there are any.
    await runCli(["suppress", "add", "+14155550123"], e);
    expect(JSON.parse((await runCli(["suppress", "list", "--json"], e)).stdout)).toEqual(["+14155550123"]);
    expect((await runCli(["suppress", "list"], e)).stdout).toMatch(
      /^do-not-call lists:\n {2}ftc +1 numbers {2}imported 0 min ago from ftc-new\.txt {2}never expires\nopted out \(1\):\n {2}\+14155550123\n$/,
    );
    expect((await runCli(["suppress", "remove", "--source", "ftc"], e)).stdout).toMatch(/removed/);
    expect((await runCli(["suppress", "list"], e)).stdout).toBe("+14155550123\n");
  }, 120_000);

  it("refuses a file that is not an extract, naming lines; keeps the list in force", async () => {
    const e = env();
    await runCli(
      ["suppress", "import", writeFixture(dir, "ok.txt", "2125550100\n"), "--source", "state-fl"],
      e,
    );
    const bad = writeFixture(dir, "bad.txt", "2125550100\nhello\n2125550101\n12345\n");
    const r = await runCli(["suppress", "import", bad, "--source", "state-fl"], e);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /bad\.txt: 2 of 4 lines are no phone number .*line 2: .*line 4: .*the list in force is unchanged/,
    );
    const lists = JSON.parse((await runCli(["suppress", "list", "--sources", "--json"], e)).stdout);
    expect(lists).toMatchObject([{ source: "state-fl", numbers: 1, file: "ok.txt" }]);
    const usage = await runCli(["suppress", "import", bad, "--source", "fl", "--expires", "soon"], e);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--expires: "soon" is not an expiry/);
    const missing = await runCli(["suppress", "import", join(dir, "nope.txt"), "--source", "fl"], e);
    expect(missing.stderr).toMatch(/nope\.txt: no such file/);
  }, 120_000);

  it("warns of an expired list at the next import", async () => {
    const e = env();
    await runCli(
      [
        "suppress",
        "import",
        writeFixture(dir, "a.txt", "2125550100\n"),
        "--source",
        "old",
        "--expires",
        "1h",
      ],
      e,
    );
    // Its expiry moved into the past, as time would.
    const { Redis } = await import("ioredis");
    const redis = new Redis(e.REDIS_URL);
    const key = `${e.VCW_PREFIX}:dnc:{lists}`;
    const old = JSON.parse((await redis.hget(key, "old"))!);
    await redis.hset(
      key,
      "old",
      JSON.stringify({
        ...old,
        importedAt: old.importedAt - 40 * 86_400_000,
        expiresAt: old.importedAt - 9 * 86_400_000,
      }),
    );
    await redis.quit();
    const r = await runCli(
      ["suppress", "import", writeFixture(dir, "b.txt", "3055550100\n"), "--source", "new"],
      e,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: old .*EXPIRED 9 d ago \(still suppresses; import a fresh extract\)/);
    // jobs check says it too, when the daemon's Redis answers.
    const jobs = writeFixture(dir, "j.yaml", "name: j\ninbox: inbox/j\nsegment: { id: seg_1 }\n");
    const check = await runCli(["jobs", "check", dirname(jobs)], e);
    expect(check.code).toBe(0);
    expect(check.stderr).toMatch(
      /warn do-not-call list "old" expired 9 d ago .*it still suppresses its numbers/,
    );
    // And vcw status, beside the list in force.
    const status = await runCli(["status"], e);
    expect(status.stdout).toMatch(/warning: do-not-call list "old" expired 9 d ago/);
    expect(status.stdout).toMatch(/do-not-call list new: 1 numbers, imported 0 min ago/);
    expect(JSON.parse((await runCli(["status", "--json"], e)).stdout).doNotCall).toHaveLength(2);
  }, 120_000);
});
