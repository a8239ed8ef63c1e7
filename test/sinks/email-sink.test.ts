import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SinkDefinition } from "../../src/config/sink-definition.ts";
import { createSink } from "../../src/queue/create-sink.ts";
import { emailSink, subjectOf } from "../../src/sinks/email/email-sink.ts";
import { SinkError } from "../../src/sinks/sink-error.ts";
import { fixedReport } from "../support/report-fixture.ts";
import { startSmtpServer } from "../support/smtp.ts";

const PASSWORD = "smtp-pass-SECRET-77aa";

describe("the email sink", () => {
  let s: Awaited<ReturnType<typeof startSmtpServer>>;
  let port = 0;
  beforeAll(async () => {
    s = await startSmtpServer({ user: "vcw", password: PASSWORD });
    port = s.port;
  });
  afterAll(() => s.close());

  it("sends a report as HTML with inline PNG charts and a plain-text part, with the campaigns' figures", async () => {
    const report = fixedReport({ pageUrl: "https://vcw.example.com/reports/leads" });
    const sink = emailSink("mail", {
      url: `smtp://vcw:${PASSWORD}@127.0.0.1:${port}`,
      from: "vcw@example.com",
      to: ["manager@example.com", "ops@example.com"],
      subject: "{job}: {kind} {period}",
      timeoutMs: 10_000,
    });
    await sink.deliver({ idempotencyKey: "k123", payload: report });
    const m = s.received.at(-1)!;
    expect(m.subject).toBe("leads: report 2026-11-19 08:00 PST – 2026-11-20 08:00 PST (America/Los_Angeles)");
    expect(m.messageId).toBe("<k123@vcw>");
    expect((m.to as { value: { address: string }[] }).value.map((v) => v.address)).toEqual([
      "manager@example.com",
      "ops@example.com",
    ]);
    // Three charts as inline PNG images, each referenced by the HTML by its Content-ID.
    const images = m.attachments.filter((a) => a.contentType === "image/png");
    expect(images.map((a) => a.cid).sort()).toEqual([
      "calls-by-hour@vcw",
      "outcomes@vcw",
      "reach-by-local-hour@vcw",
    ]);
    for (const img of images) {
      expect(img.content.subarray(1, 4).toString()).toBe("PNG");
      expect(img.content.length).toBeGreaterThan(3_000);
      expect(img.contentDisposition).toBe("inline");
    }
    const html = String(m.html);
    expect(html).not.toContain("<svg");
    for (const img of images) expect(html).toContain(`src="cid:${img.cid}"`);
    // The figures of the campaigns it ran, in both parts.
    for (const text of [m.text ?? "", html]) {
      expect(text).toContain("North leads");
      expect(text).toContain("West leads");
      expect(text).toMatch(/Contacts called/);
      expect(text).toContain("4 of 7 contacts (57.1%)");
      expect(text).toContain("4 of 7 calls (57.1%)");
    }
    expect(m.text).toContain("Meetings: 2");
    expect(m.text).toContain("Opted out: 1");
    expect(m.text).toContain("The report online: https://vcw.example.com/reports/leads");
    expect(m.text).toMatch(/as observed by polling/);
  });

  it("fails with a SinkError that never shows the password", async () => {
    const sink = emailSink("mail", {
      url: `smtp://vcw:wrong-${PASSWORD}@127.0.0.1:${port}`,
      from: "vcw@example.com",
      to: ["manager@example.com"],
      subject: "x",
      timeoutMs: 5_000,
    });
    const error = await sink
      .deliver({ idempotencyKey: "k2", payload: fixedReport() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SinkError);
    expect(String((error as Error).message)).toMatch(/sink mail: sending mail failed/);
    expect(String((error as Error).message)).not.toContain(PASSWORD);
    expect(JSON.stringify(error)).not.toContain(PASSWORD);
  });

  it("is made from its definition with the URL from the environment, and says which variable is missing", () => {
    const def = SinkDefinition.parse({
      type: "email",
      urlEnv: "VCW_SMTP_URL",
      from: "vcw@example.com",
      to: ["a@example.com"],
    });
    const logger = pino({ level: "silent" });
    expect(() => createSink("mail", def, { logger, env: {} })).toThrow(
      "the SMTP URL variable VCW_SMTP_URL is not set",
    );
    expect(() => createSink("mail", def, { logger, env: { VCW_SMTP_URL: "http://x" } })).toThrow(
      "must hold an smtp:// or smtps:// URL",
    );
    expect(
      SinkDefinition.safeParse({ type: "email", urlEnv: "X", from: "v@e.com", to: ["not an address"] })
        .success,
    ).toBe(false);
  });

  it("fills the subject template for summaries too", () => {
    expect(subjectOf("{job} {kind} {campaign}", { ...fixedReport(), job: "j" })).toBe("j report");
  });
});
