import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import type { AuditEntry } from "../../src/pipeline/stores/audit-log.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { runCli } from "../support/cli.ts";
import { drop, summaryOf, testSettings, waitFor } from "../support/daemon.ts";

/**
 * Issue 46, done when: a job requiring written consent, a file where some rows lack it; those rows
 * are refused with reasons and never called, the others are called and each has one audit record
 * naming its consent; the day's export matches the service's audience one to one; the report says so.
 */
describe("consent on record and an audit trail per call, end to end", () => {
  // 600 simulated seconds a real second: the campaign's calls end within seconds.
  const h = useCallingDaemon({ timeScale: 600 });
  const { t } = h;

  it("refuses the rows without written consent, calls the others, and keeps exactly one audit record per call", async () => {
    const { inbox, name, home } = h.callingJob({ extra: ["calling:", "  consent: { require: written }"] });
    // The HTTP surface (the campaign page's API) on a free port: this test reads it.
    const settings = testSettings(home, t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0" });
    const daemon = await h.start(settings);
    const file = [
      "Phone,First Name,Consent Given At,Consent Kind,xxTrustedFormCertUrl",
      "4155554601,Ann,2026-01-05T10:00:00Z,express written,https://cert.trustedform.com/a1",
      "4155554602,Bo,2026-01-05T10:01:00Z,written,",
      "4155554603,Cy,2026-01-05T10:02:00Z,Express Written Consent,",
      "4155554604,Di,2026-01-05T10:03:00Z,express,",
      "4155554605,Ed,,,",
    ].join("\n");
    const before = Date.now();
    drop(inbox, "leads.csv", `${file}\n`);
    const summary = await waitFor(() => summaryOf(inbox, "leads.csv"), 30_000, "leads.csv imported");
    expect(summary.created).toBe(3);
    expect(summary.totals).toMatchObject({ skipped: 2 });
    const errors = readFileSync(summary.errorsFile, "utf8");
    expect(errors).toMatch(/4155554604,.*,5,consent kind,,consent_not_written,/);
    expect(errors).toMatch(/4155554605,.*,6,consent given at,,consent_missing,/);

    const campaign = await waitFor(
      async () => (await t.client.campaigns.list()).find((c) => c.campaigns_name?.startsWith(`${name} `)),
      30_000,
      "campaign created",
    );
    const id = campaign.id!;
    await waitFor(
      async () => ((await daemon.stores.store.get(id))?.info.state === "finished" ? true : undefined),
      60_000,
      "campaign finished",
    );
    const audience = (await t.client.campaigns.audiences(id)).map((e) => e.phone).sort();
    expect(audience).toEqual(["+14155554601", "+14155554602", "+14155554603"]);

    const env = { REDIS_URL: inject("redisUrl"), VCW_PREFIX: settings.prefix.value };
    // The day the records were written: a run across midnight (UTC) exports its two days.
    const after = Date.now();
    const [from, to] = [before, after].map((at) => new Date(at).toISOString().slice(0, 10));
    const exported = await runCli(
      ["audit", "export", "--from", from!, "--to", to!, "--format", "jsonl"],
      env,
    );
    const trail = exported.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as AuditEntry);
    expect(trail.every((e) => e.at >= before && e.at <= after)).toBe(true);
    const called = trail.filter((e) => e.decision === "called");
    expect(called.map((e) => e.phone).sort()).toEqual(audience);
    expect(called.every((e) => e.campaign === id && e.job === name)).toBe(true);
    const ann = called.find((e) => e.phone === "+14155554601")!;
    expect(ann.facts?.consent).toMatchObject({
      kind: "written",
      file: "leads.csv",
      row: 2,
      trustedForm: "https://cert.trustedform.com/a1",
    });
    expect(trail.filter((e) => e.decision === "refused").map((e) => [e.phone, e.reason, e.row])).toEqual([
      ["+14155554604", "consent_not_written", 5],
      ["+14155554605", "consent_missing", 6],
    ]);

    const report = await runCli(["report", id], env);
    expect(report.stdout).toContain("Audit: 3 calls, 3 audit records");
    const page = (await (await fetch(`${daemon.http!.url}/api/campaigns/${id}`)).json()) as {
      audit: { count: number; entries: { number: string; consent: string; evidence: string }[] };
    };
    expect(page.audit.count).toBe(3);
    expect(page.audit.entries.map((e) => e.number).join()).not.toMatch(/415555460\d/);
    expect(page.audit.entries.find((e) => e.evidence === "TrustedForm")?.consent).toMatch(
      /^written, given 2026-01-05T10:00:00.000Z \(leads\.csv row 2\)$/,
    );
  });
});
