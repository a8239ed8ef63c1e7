import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reportCharts } from "../../../src/pipeline/reports/charts.ts";
import { reportFileBase } from "../../../src/pipeline/reports/format.ts";
import { svgToPng } from "../../../src/pipeline/reports/png.ts";
import { reportHtml } from "../../../src/pipeline/reports/report-html.ts";
import { reportText } from "../../../src/pipeline/reports/report-text.ts";
import { fileSink } from "../../../src/sinks/file/file-sink.ts";
import { reportBlocks } from "../../../src/sinks/slack/report-slack.ts";
import { fixedReport } from "../../support/report-fixture.ts";

describe("report renderings", () => {
  it("charts are SVG drawn on the server, with the period's hours and the callee's hours", async () => {
    const charts = await reportCharts(fixedReport());
    expect(charts.map((c) => c.id)).toEqual(["calls-by-hour", "reach-by-local-hour", "outcomes"]);
    for (const c of charts) expect(c.svg).toMatch(/^<svg[^>]*viewBox/);
    expect(charts[1]!.svg).toContain("callee's local hour");
    expect(charts[2]!.svg).toContain("meetings");
    // Counts are whole: no "0.5 calls" tick on a small day.
    for (const c of [charts[0]!, charts[2]!]) expect(c.svg).not.toMatch(/>\d+\.\d+<\/text>/);
    const png = await svgToPng(charts[0]!.svg);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
  });

  it("the page is self-contained: inline styles and SVG, no script, a print stylesheet, escaped names", async () => {
    const r = fixedReport();
    r.campaigns[0]!.name = "<b>North</b> & co";
    const html = reportHtml(r, await reportCharts(r));
    expect(html).toContain("&lt;b&gt;North&lt;/b&gt; &amp; co");
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html).toContain("@media print");
    expect(html).toContain('name="viewport"');
    expect(html.match(/<svg/g)).toHaveLength(3);
    expect(html).toMatch(/as observed by polling/);
    expect(html).toContain("vcw report cmp_north");
    expect(html).toContain("phone in scientific notation (Excel) 2");
    expect(html).not.toContain("phone_excel_scientific");
  });

  it("plain text and Slack Block Kit carry the headline numbers and their change", () => {
    const r = fixedReport({ pageUrl: "https://vcw.example.com/reports/leads" });
    const text = reportText(r);
    expect(text).toContain("Calls ended: 7 (+7; none in the previous period)");
    expect(text).toContain("Reached: 4 of 7 contacts (57.1%)");
    // No calls in the previous period: no "+57.1 pts" out of nothing.
    expect(text).toContain("Reached: 4 of 7 contacts (57.1%) (no calls in the previous period)");
    expect(text).not.toContain("pts");
    // Reasons in words (issue 40), the one table of them (ingest/reason-words.ts), never the code.
    expect(text).toContain("Rejected rows by reason: phone in scientific notation (Excel) 2");
    expect(text).not.toContain("phone_excel_scientific");
    const slack = reportBlocks(r, r.pageUrl);
    const json = JSON.stringify(slack.blocks);
    expect(slack.blocks[0]).toMatchObject({ type: "header" });
    expect(json).toContain("*Reached*\\n4 of 7 contacts (57.1%)");
    expect(json).toContain('"url":"https://vcw.example.com/reports/leads"');
    expect(JSON.stringify(reportBlocks(r).blocks)).not.toContain('"actions"');
  });

  it("the file sink writes <job>.<period>.html and .json, the same again on a retry", async () => {
    const dir = await mkdtemp(join(tmpdir(), "vcw-report-"));
    const r = fixedReport();
    const sink = fileSink({ dir });
    await sink.deliver({ idempotencyKey: "k", payload: r });
    await sink.deliver({ idempotencyKey: "k", payload: r });
    expect(reportFileBase(r)).toBe("leads.day-20261120T1600Z");
    expect((await readdir(dir)).sort()).toEqual([
      "leads.day-20261120T1600Z.html",
      "leads.day-20261120T1600Z.json",
    ]);
    expect(JSON.parse(await readFile(join(dir, "leads.day-20261120T1600Z.json"), "utf8"))).toEqual(r);
    expect(await readFile(join(dir, "leads.day-20261120T1600Z.html"), "utf8")).toContain("<svg");
  });

  it("a rate's change is in points when the previous period had calls", () => {
    const r = fixedReport();
    r.previous.totals.contactsCalled = 5;
    r.change.reachRate = { delta: 0.125, ratio: 0.28 };
    r.change.contactReachRate = { delta: -0.05, ratio: -0.08 };
    expect(reportText(r)).toContain("Reached: 4 of 7 contacts (57.1%) (-5 pts vs the previous period)");
    expect(reportText(r)).toContain(
      "Reached per call: 4 of 7 calls (57.1%) (+12.5 pts vs the previous period)",
    );
  });

  it("the campaigns table has a Zone column only when some campaign has a zone", async () => {
    const r = fixedReport();
    const zoneless = { ...r, campaigns: r.campaigns.map(({ zone: _, ...c }) => c) };
    expect(reportHtml(zoneless, [])).not.toContain(">Zone</th>");
    expect(zoneless.campaigns.length).toBeGreaterThan(1);
    const zoned = {
      ...r,
      campaigns: zoneless.campaigns.map((c, i) => (i === 0 ? { ...c, zone: "Europe/London" } : c)),
    };
    const html = reportHtml(zoned, []);
    expect(html).toContain(">Zone</th>");
    expect(html).toMatch(/<td data-label="Zone"[^>]*>Europe\/London<\/td>/);
    expect(html).toMatch(/<td data-label="Zone"[^>]*>—<\/td>/);
  });

  it("a follow-up's name says it once: the name carries it, the page adds nothing", () => {
    const r = fixedReport();
    const name = "leads 2026-11-20 f.csv #0badf00d [America/Los_Angeles] follow-up 1";
    const followUp = { ...r, campaigns: [{ ...r.campaigns[0]!, name, attempt: 1 }] };
    const html = reportHtml(followUp, []);
    expect(html).toContain(`>${name}</td>`);
    expect(html.match(/follow-up 1/g)).toHaveLength(1);
  });
});
