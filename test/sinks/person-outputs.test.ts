import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/daemon/logger.ts";
import { emptyTotals, summarize } from "../../src/pipeline/model/campaign-totals.ts";
import type { CampaignSummary } from "../../src/pipeline/model/results.ts";
import type { ReportModel } from "../../src/pipeline/reports/model.ts";
import { renderReportPage } from "../../src/pipeline/reports/render.ts";
import { ReportBuilder } from "../../src/pipeline/reports/report-builder.ts";
import { emailSink } from "../../src/sinks/email/email-sink.ts";
import { logSink } from "../../src/sinks/log/log-sink.ts";
import { slackSink } from "../../src/sinks/slack/slack-sink.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { sendJson, startHttpServer, type TestServer } from "../support/http-server.ts";
import { startSmtpServer } from "../support/smtp.ts";

/** A file name an adversary (or a careless export) chose: a phone, Slack markup, and a mention. */
const FILE = "leads +1 415 555 0123 <!channel> <mailto:a@evil.example|click here> & co.csv";
const NAME = `leads ${FILE} #0a1b2c3d`;
const H = 3_600_000;
/** Any run of the phone's digits a person could read back. */
const PHONE = /555[\s.-]?0123|4155550123/;

function report(): ReportModel {
  const to = Date.parse("2026-11-20T16:00:00Z");
  const b = new ReportBuilder({
    job: "leads",
    period: {
      from: new Date(to - 24 * H).toISOString(),
      to: new Date(to).toISOString(),
      timezone: "UTC",
      label: "day",
    },
    reached: ["completed"],
    optedOut: ["opted-out"],
    now: to,
    resultsOf: (id) => `vcw report ${id}`,
  });
  b.addCampaign({
    info: campaignInfo({ id: "cmp_x", name: NAME, job: "leads", file: FILE, state: "stuck" }),
    totals: { ...emptyTotals(), contacts: 1, byStatus: { completed: 1 }, unknown: { weird: 1 } },
    zone: "UTC",
    calls: [
      {
        phone: "+14155550123",
        status: "completed",
        at: to - 2 * H,
        durationSec: 30,
        sentiment: "",
        meeting: false,
        transferred: false,
        messageSent: false,
      },
    ],
    ranPastWindow: true,
  });
  b.addFile({
    status: "rejected",
    file: FILE,
    finishedAt: to - H,
    reason: `row 2: +1 415 555 0123 is on no list <!here>`,
    rows: { total: 1, valid: 0, rejected: 1, duplicates: 0, codes: {} },
    created: 0,
  });
  return b.build();
}

const summary = (): CampaignSummary =>
  summarize(
    campaignInfo({ name: NAME, job: "leads", file: FILE, state: "finished" }),
    { ...emptyTotals(), contacts: 1, final: 1, byStatus: { completed: 1 } },
    1,
    "final",
    Date.parse("2026-11-22T11:00:00Z"),
  );

describe("what a person reads of a file name (issue 32 items 5 and 7)", () => {
  let slack: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    slack = await startHttpServer((_req, res) => sendJson(res, 200, "ok"));
    smtp = await startSmtpServer({ user: "vcw", password: "smtp-pass-77" });
  });
  afterAll(async () => {
    await slack.close();
    await smtp.close();
  });

  it("the report model (its JSON), page and e-mail show the phone masked", async () => {
    const r = report();
    const json = JSON.stringify(r);
    expect(json).toContain("+1 4");
    expect(json).not.toMatch(PHONE);
    expect(await renderReportPage(r)).not.toMatch(PHONE);
    const mail = emailSink("mail", {
      url: smtp.url,
      from: "vcw@example.com",
      to: ["m@example.com"],
      subject: "{job} {kind} {campaign}",
      timeoutMs: 10_000,
    });
    await mail.deliver({ idempotencyKey: "r1", payload: r });
    await mail.deliver({ idempotencyKey: "s1", payload: summary() });
    for (const m of smtp.received.slice(-2)) {
      expect(`${m.subject} ${m.text} ${m.html}`).not.toMatch(PHONE);
    }
    expect(smtp.received.at(-1)!.subject).toContain("+1 4");
  });

  it("Slack gets &, < and > escaped in every text, and the phone masked", async () => {
    const sink = slackSink("slack", { url: `${slack.url}/hook`, timeoutMs: 5_000 });
    await sink.deliver({ idempotencyKey: "r", payload: report() });
    await sink.deliver({ idempotencyKey: "s", payload: summary() });
    const texts: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object")
        for (const [k, x] of Object.entries(v)) {
          if (k === "text" && typeof x === "string") texts.push(x);
          else walk(x);
        }
    };
    for (const req of slack.requests) walk(JSON.parse(req.body));
    const all = texts.join("\n");
    expect(all).toContain("&lt;!channel&gt;");
    expect(all).toContain("&lt;mailto:a@evil.example|click here&gt;");
    expect(all).toContain("&amp; co.csv");
    expect(all).toContain("&lt;!here&gt;");
    for (const t of texts) expect(t.replace(/&(amp|lt|gt);/g, "")).not.toMatch(/[<>&]/);
    expect(all).not.toMatch(PHONE);
  });

  it("log lines, message and fields, have phones masked", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ pretty: false, destination: stream });
    await logSink(logger).deliver({ idempotencyKey: "s", payload: summary() });
    logger.warn({ file: FILE, err: new Error(`could not read ${FILE}`) }, `file ${FILE} rejected`);
    logger.child({ file: FILE }).info("child");
    await new Promise((r) => setImmediate(r));
    const text = lines.join("");
    expect(text).toContain("campaign summary");
    expect(text).toContain("could not read");
    expect(text).not.toMatch(PHONE);
  });
});
