import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempDir, writeFixture } from "../support/files.ts";

/** Issue 46 item 2: `vcw consent revoke` revokes numbers (or a list) for every job, at the time received. */
describe("vcw consent", () => {
  const env = () => ({
    REDIS_URL: inject("redisUrl"),
    VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}`,
  });
  const dir = tempDir("vcw-consent-cli-");

  it("revokes numbers given and a CSV list, suppresses them, shows when and how; a bad line is named and left out", async () => {
    const e = env();
    const before = Date.now();
    const one = await runCli(["consent", "revoke", "(212) 555-0100", "--json"], e);
    expect(one.code).toBe(0);
    const answer = JSON.parse(one.stdout) as { revoked: number; at: string; bad: string[] };
    expect(answer).toMatchObject({ revoked: 1, bad: [] });
    expect(Date.parse(answer.at)).toBeGreaterThanOrEqual(before);

    const csv = writeFixture(
      dir,
      "revocations.csv",
      "Phone,Name\n+13055550102,Ann\nnot a number,Bo\n212-555-0103,Cy\n",
    );
    const listed = await runCli(["consent", "revoke", "--file", csv], e);
    expect(listed.code).toBe(1);
    expect(listed.stdout).toMatch(/^2 revoked at \S+ \(vcw consent revoke --file revocations\.csv\)\n$/);
    expect(listed.stderr).toContain(`not a number, left out: ${csv} line 3`);

    const shown = await runCli(["consent", "show", "+12125550100", "+13055550102", "+12125550199"], e);
    expect(shown.stdout).toMatch(
      /^\+12125550100: no consent on record; revoked \S+ \(vcw consent revoke\)\n/m,
    );
    expect(shown.stdout).toMatch(
      /^\+13055550102: no consent on record; revoked \S+ \(vcw consent revoke --file revocations\.csv\)$/m,
    );
    expect(shown.stdout).toMatch(/^\+12125550199: no consent on record$/m);
    expect(JSON.parse((await runCli(["suppress", "list", "--json"], e)).stdout)).toEqual([
      "+12125550100",
      "+12125550103",
      "+13055550102",
    ]);
    expect((await runCli(["consent", "revoke"], e)).stderr).toContain(
      "give the phones to revoke, or --file CSV",
    );
  });
});
