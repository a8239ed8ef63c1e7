import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { emptyTotals } from "../../src/pipeline/model/campaign-totals.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo, resultRecord } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";

/** A file name that sets the window title, paints red, rewrites the line and breaks it. */
const FILE = "leads\u001b]0;pwned\u0007\u001b[31mred\rOVERWRITE\nnext\u202eevil.csv";
/** Anything a terminal would obey. */
const OBEYED = /(?!\n)[\p{Cc}\u202e]/u;

describe("file names printed on a terminal (issue 32 item 6)", () => {
  const { redis } = useRedis();

  it("vcw campaigns and vcw report print control characters visibly", async () => {
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const keys = redisKeys(prefix);
    const home = tempDir("vcw-term-");
    const jobs = join(home, "jobs");
    mkdirSync(jobs);
    writeFileSync(
      join(jobs, "t.yaml"),
      [
        "name: term",
        `inbox: ${join(home, "inbox")}`,
        "segment: { id: seg_1 }",
        "campaign:",
        "  assistant: { id: a }",
        "  dialer: { id: d }",
      ].join("\n"),
    );
    const store = createCampaignStore(redis, keys);
    const info = campaignInfo({ id: "cmp_t", name: `term ${FILE} #0a1b2c3d`, job: "term", file: FILE });
    await store.register(info, Date.now() - 60_000);
    await store.commit(
      "cmp_t",
      "term",
      {
        changes: [
          {
            phone: "+15550001",
            fingerprint: "f",
            record: resultRecord("+15550001", { status: "completed" }),
          },
        ],
        transitions: [{ phone: "+15550001", from: "queued", to: "completed" }],
        totals: { ...emptyTotals(), contacts: 1, final: 1, byStatus: { completed: 1 } },
        digest: "d",
        version: 1,
        now: Date.now(),
        state: "active",
      },
      info,
    );
    const env = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: prefix, VCW_JOBS_DIR: jobs };
    for (const args of [["campaigns"], ["report", "cmp_t"], ["report", "--job", "term", "--since", "1h"]]) {
      const out = await runCli(args, env);
      expect(out.code, `${args.join(" ")}: ${out.stderr}`).toBe(0);
      expect(out.stdout, args.join(" ")).toContain(
        "leads\\e]0;pwned\\x07\\e[31mred\\rOVERWRITE\\nnext\\u202eevil.csv",
      );
      expect(out.stdout.split("\n").some((l) => l.startsWith("next"))).toBe(false);
      expect(out.stdout).not.toMatch(OBEYED);
    }
  });
});
