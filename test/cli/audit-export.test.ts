import { randomBytes } from "node:crypto";
import Papa from "papaparse";
import { describe, expect, inject, it } from "vitest";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { AUDIT_COLUMNS } from "../../src/pipeline/consent/audit-rows.ts";
import { createAuditLog } from "../../src/pipeline/stores/audit-log.ts";
import { runCli } from "../support/cli.ts";
import { useRedis } from "../support/redis.ts";

/** Issue 46 item 3: `vcw audit export` lists a period's records, as CSV or JSON Lines, for one number or all. */
describe("vcw audit export", () => {
  const { redis } = useRedis();

  it("exports the day's calls and refusals in order; --number keeps one number's; a bad date is named", async () => {
    const prefix = `vcw-test-${randomBytes(4).toString("hex")}`;
    const env = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: prefix };
    const audit = createAuditLog(redis, redisKeys(prefix));
    const at = Date.now();
    const consent = {
      givenAt: Date.parse("2026-01-05T10:00:00Z"),
      kind: "written",
      file: "leads.csv",
      row: 2,
    };
    await audit.append("file:j:sha:0", [
      {
        item: "3",
        entry: {
          at,
          decision: "refused",
          phone: "+14155550102",
          job: "j",
          file: "leads.csv",
          row: 3,
          reason: "consent_missing",
          message: "no consent",
        },
      },
    ]);
    await audit.append("campaign:c1", [
      {
        item: "+14155550101",
        entry: {
          at,
          decision: "called",
          phone: "+14155550101",
          job: "j",
          campaign: "c1",
          file: "leads.csv",
          facts: {
            consent,
            requirement: "written",
            rules: [{ id: "us", read: "2026-11-25", sha256: "abc" }],
          },
        },
      },
      {
        item: "+14155550103",
        entry: {
          at,
          decision: "called",
          phone: "+14155550103",
          job: "j",
          campaign: "c1",
          facts: { consent: null },
        },
      },
    ]);
    const appended = Date.now();
    const day = new Date(at).toISOString().slice(0, 10);

    const jsonl = await runCli(["audit", "export", "--from", day, "--to", day, "--format", "jsonl"], env);
    expect(jsonl.code).toBe(0);
    const entries = jsonl.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { decision: string; phone: string });
    expect(entries.map((e) => [e.decision, e.phone])).toEqual([
      ["refused", "+14155550102"],
      ["called", "+14155550101"],
      ["called", "+14155550103"],
    ]);

    const csv = await runCli(
      ["audit", "export", "--from", day, "--to", day, "--number", "415-555-0101"],
      env,
    );
    const rows = Papa.parse<string[]>(csv.stdout.replace(/^\uFEFF/, "").trim()).data;
    expect(rows[0]).toEqual([...AUDIT_COLUMNS]);
    expect(rows).toHaveLength(2);
    const row = Object.fromEntries(AUDIT_COLUMNS.map((c, i) => [c, rows[1]![i]]));
    expect(row).toMatchObject({
      decision: "called",
      number: "'+14155550101",
      campaign: "c1",
      consent_required: "written",
      consent_given_at: "2026-01-05T10:00:00.000Z",
      consent_kind: "written",
      consent_file: "leads.csv row 2",
      rules: "us (read 2026-11-25, abc)",
    });

    const yesterday = new Date(at - 86_400_000).toISOString().slice(0, 10);
    const none = await runCli(
      ["audit", "export", "--from", yesterday, "--to", yesterday, "--format", "jsonl"],
      env,
    );
    expect(none.stdout).toBe("");
    const bad = await runCli(["audit", "export", "--from", "monday", "--to", day], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--from "monday" is not a date');

    // Review of issue 46, finding 11: a date-time without an offset is UTC, whatever the machine's zone.
    // The trail is ranged by when Redis recorded each entry (its stream id), which is after `at`: the
    // window closes a second after the appends ended (closing it at at + 1 s failed in CI when the
    // appends crossed a second), still hours from the New York reading of the same text.
    const second = new Date(at).toISOString().slice(0, 19);
    const next = new Date(appended + 1_000).toISOString().slice(0, 19);
    const zoned = { ...env, TZ: "America/New_York" };
    const instants = await runCli(
      ["audit", "export", "--from", second, "--to", next, "--format", "jsonl"],
      zoned,
    );
    expect(instants.code).toBe(0);
    expect(instants.stdout.trim().split("\n")).toHaveLength(3);
  });

  it("refuses a bound that is no day or ISO date-time, or a day that does not exist, naming the option and the value", async () => {
    const env = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: `vcw-test-${randomBytes(4).toString("hex")}` };
    const cases: [string, string][] = [
      ["--from", "1"],
      ["--from", "12"],
      ["--from", "2026-02-30"],
      ["--from", "2026-13-01"],
      ["--from", "Nov 29 2026"],
      ["--from", "11/29/2026"],
      ["--to", "2026-11-29T25:00"],
      ["--to", "2026-11-29T14:00:00+5"],
      ["--to", "2026-11"],
    ];
    for (const [option, value] of cases) {
      const args =
        option === "--from"
          ? ["--from", value, "--to", "2026-11-29"]
          : ["--from", "2026-11-29", "--to", value];
      const r = await runCli(["audit", "export", ...args], env);
      expect(r.code, value).toBe(2);
      expect(r.stderr, value).toContain(
        `${option} "${value}" is not a date (2026-11-29, a whole UTC day) or an ISO date-time (2026-11-29T14:00:00Z; UTC without an offset)`,
      );
    }
  });
});
