import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createConsentStore } from "../../src/pipeline/stores/consent-store.ts";
import { createSuppressionList } from "../../src/pipeline/stores/suppression.ts";
import { runCli } from "../support/cli.ts";
import { tempDir, writeFixture } from "../support/files.ts";
import { useRedis } from "../support/redis.ts";

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

  it("revokes a number given with a national 0 after its country code as its E.164; refuses one too short, revoking nothing", async () => {
    const e = env();
    const short = await runCli(["consent", "revoke", "+4402071234567", "+1415555010"], e);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('"+1415555010" is not a phone number (phone_too_short)');
    expect((await runCli(["suppress", "list", "--json"], e)).stdout).toBe("[]\n");
    expect((await runCli(["consent", "revoke", "+4402071234567"], e)).code).toBe(0);
    expect(JSON.parse((await runCli(["suppress", "list", "--json"], e)).stdout)).toEqual(["+442071234567"]);
  });
});

/** Review of issue 46, finding 1: a revocation list of 200,000 numbers suppresses every one of them. */
describe("vcw consent revoke --file, a long list", () => {
  const { redis } = useRedis();
  const dir = tempDir("vcw-consent-big-");

  it("suppresses and revokes all 200,000 numbers of a list (in batches), exit 0", async () => {
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const e = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: prefix };
    const phones = Array.from({ length: 200_000 }, (_, i) => `+1212${String(2_000_000 + i)}`);
    const file = writeFixture(dir, "big.csv", `${phones.join("\n")}\n`);
    const r = await runCli(["consent", "revoke", "--file", file, "--json"], e, 120_000);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ revoked: 200_000, bad: [] });
    const keys = redisKeys(prefix);
    expect(await redis.scard(keys.suppressed)).toBe(200_000);
    expect((await createSuppressionList(redis, keys).optedOut(phones)).size).toBe(200_000);
    const kept = await createConsentStore(redis, keys).read([phones[0]!, phones[199_999]!]);
    expect([...kept.values()].map((k) => k.revokedVia)).toEqual([
      "vcw consent revoke --file big.csv",
      "vcw consent revoke --file big.csv",
    ]);
  }, 180_000);

  it("keeps the first 100 bad lines and counts the rest", async () => {
    const e = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}` };
    const bad = Array.from({ length: 150 }, (_, i) => `bad ${i}`);
    const file = writeFixture(dir, "bad.csv", `+12125550100\n${bad.join("\n")}\n`);
    const json = await runCli(["consent", "revoke", "--file", file, "--json"], e);
    expect(json.code).toBe(1);
    const answer = JSON.parse(json.stdout) as { revoked: number; bad: string[]; badNotShown: number };
    expect(answer).toMatchObject({ revoked: 1, badNotShown: 50 });
    expect(answer.bad).toHaveLength(100);
    const text = await runCli(["consent", "revoke", "--file", file], e);
    expect(text.stderr.split("\n").filter((l) => l.startsWith("not a number, left out:"))).toHaveLength(100);
    expect(text.stderr).toContain("and 50 more bad lines, left out (not shown)");
  });
});

describe("vcw consent show", () => {
  const { redis } = useRedis();

  it("shows each seller's consent of a number, and one naming no seller", async () => {
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const consent = createConsentStore(redis, redisKeys(prefix));
    const at = Date.parse("2026-01-05T10:00:00Z");
    await consent.record("+12125550140", {
      givenAt: at,
      kind: "written",
      seller: "Acme",
      file: "w.csv",
      row: 2,
    });
    await consent.record("+12125550140", {
      givenAt: at + 1,
      kind: "express",
      seller: "OtherCo",
      file: "v.csv",
      row: 3,
    });
    await consent.record("+12125550140", { givenAt: at + 2, kind: "express", file: "x.csv", row: 4 });
    const shown = await runCli(["consent", "show", "+12125550140"], {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: prefix,
    });
    expect(shown.stdout).toBe(
      "+12125550140: express consent naming no seller given 2026-01-05T10:00:00.002Z (file x.csv row 4); express consent for OtherCo given 2026-01-05T10:00:00.001Z (file v.csv row 3); written consent for Acme given 2026-01-05T10:00:00.000Z (file w.csv row 2)\n",
    );
  });
});
