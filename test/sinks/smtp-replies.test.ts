import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SinkDefinition } from "../../src/config/sink-definition.ts";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { emptyTotals, summarize } from "../../src/pipeline/model/campaign-totals.ts";
import { createSink } from "../../src/queue/create-sink.ts";
import { quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { startSmtpServer } from "../support/smtp.ts";

const PASSWORD = "Smtp-Pass-Secret-91";
const summary = () =>
  summarize(
    campaignInfo({ name: "leads a.csv #0123", job: "leads", file: "a.csv", state: "finished" }),
    { ...emptyTotals(), contacts: 1, final: 1, byStatus: { completed: 1 } },
    1,
    "final",
    Date.parse("2026-11-22T11:00:00Z"),
  );

describe("SMTP replies through the delivery queue (issue 32 item 10)", () => {
  let daemon: Daemon | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
  afterEach(async () => {
    await daemon?.close();
    await smtp?.close();
    daemon = undefined;
    smtp = undefined;
    vi.unstubAllEnvs();
  });

  async function deliver(refuse: () => { code: number; message: string } | undefined) {
    smtp = await startSmtpServer({ user: "vcw", password: PASSWORD }, { refuse });
    vi.stubEnv("VCW_TEST_SMTP_URL", smtp.url);
    const home = tempDir("vcw-smtp-");
    mkdirSync(join(home, "jobs"));
    writeFileSync(
      join(home, "jobs", "sinks.yaml"),
      "sinks:\n  mail:\n    type: email\n    urlEnv: VCW_TEST_SMTP_URL\n    from: vcw@example.com\n    to: [manager@example.com]\n",
    );
    const settings = testSettings(home, "http://127.0.0.1:9/api/v1", {
      VCW_DELIVERY_ATTEMPTS: "4",
      VCW_DELIVERY_BACKOFF_MS: "50",
      VCW_DELIVERY_BACKOFF_MAX_MS: "100",
    });
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: false, work: true });
    const job = await daemon.queues.deliveries.add("final", {
      sink: "mail",
      idempotencyKey: `k-${randomBytes(4).toString("hex")}`,
      payload: summary(),
    });
    return job.id!;
  }

  const stateOf = async (id: string) => (await daemon!.queues.deliveries.getJob(id))?.getState();

  it("554 fails the delivery at once, with the server's words", async () => {
    const id = await deliver(() => ({ code: 554, message: "5.7.1 Relaying denied for this sender" }));
    await waitFor(async () => ((await stateOf(id)) === "failed" ? true : undefined), 15_000, "failed");
    await new Promise((r) => setTimeout(r, 500)); // a retry, were there one, would come by now
    const job = await daemon!.queues.deliveries.getJob(id);
    expect(job!.attemptsMade).toBe(1);
    expect(smtp!.attempts()).toBe(1);
    expect(job!.failedReason).toMatch(/SMTP 554/);
    expect(job!.failedReason).toContain("Relaying denied for this sender");
    expect(job!.failedReason).not.toContain(PASSWORD);
  });

  it("451 (temporary) is retried, and a later acceptance delivers", async () => {
    let n = 0;
    const id = await deliver(() => (++n < 3 ? { code: 451, message: "4.3.0 Try again later" } : undefined));
    await waitFor(async () => ((await stateOf(id)) === "completed" ? true : undefined), 15_000, "completed");
    expect(smtp!.attempts()).toBe(3);
    expect(smtp!.received).toHaveLength(1);
  });
});

describe("a malformed SMTP URL (issue 32, smaller list)", () => {
  const def = SinkDefinition.parse({
    type: "email",
    urlEnv: "VCW_SMTP_URL",
    from: "v@example.com",
    to: ["a@example.com"],
  });
  const secret = "SeCrEtPw";
  const forms = [
    `vcw:${secret}@127.0.0.1:25`,
    `vcw:${secret}@mail.example.com`,
    `SMTP://vcw:${secret}@127.0.0.1:9`,
    `smtp://vcw:${secret}/x@127.0.0.1:9`,
    `smtp://vcw:${secret}#x@127.0.0.1:9`,
    `smtp://vcw:${secret}?x@127.0.0.1:9`,
    `smtp://vcw:1234/${secret}@127.0.0.1:9`,
    `smtp:vcw:${secret}@127.0.0.1:9`,
  ];

  it.each(forms)(
    "%s: the refusal names the variable and repeats nothing of the password, in any case",
    async (url) => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(`${w.name} ${w.message}`);
      process.on("warning", onWarning);
      const error = await Promise.resolve()
        .then(() =>
          createSink("mail", def, { logger: pino({ level: "silent" }), env: { VCW_SMTP_URL: url } }),
        )
        .then((sink) => sink.deliver({ idempotencyKey: "k", payload: summary() }))
        .catch((e: unknown) => e as Error);
      await new Promise((r) => setTimeout(r, 50)); // warnings are emitted on the next tick
      process.off("warning", onWarning);
      expect(error).toBeInstanceOf(Error);
      const said = `${(error as Error).message} ${JSON.stringify(error)} ${warnings.join(" ")}`.toLowerCase();
      expect(said).not.toContain(secret.toLowerCase());
      expect(said).not.toContain("1234");
      expect((error as Error).message).toMatch(/VCW_SMTP_URL|sending mail failed/);
    },
  );
});
