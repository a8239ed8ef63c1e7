import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { callingJob, UNREACHABLE_CRM_SINKS } from "../support/calling-job.ts";
import { contactsCsv, drop, quietLogger, testSettings } from "../support/daemon.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";
import { launch } from "./chromium.ts";

// A receiver that isn't there, with attempts left: its deliveries retry, and the page must say so
// rather than "every summary was delivered" (issue 17, item 7).
describe("the dashboard shows deliveries that are retrying as trouble", () => {
  const t = useSimulator({ timeScale: 100 });
  let daemon: Daemon | undefined;
  let browser: Awaited<ReturnType<typeof launch>> | undefined;
  let inbox: string;

  beforeAll(async () => {
    const assistant = `Ava ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: assistant }));
    const dialer = (await t.client.dialers.create(validDialer())).id!;
    const made = callingJob({
      assistant: { name: assistant },
      dialerId: dialer,
      segment: "{job} {file}",
      extra: ["summaries:", "  sinks: [crm]"],
    });
    inbox = made.inbox;
    writeFileSync(join(made.home, "jobs", "sinks.yaml"), UNREACHABLE_CRM_SINKS);
    const settings = testSettings(made.home, t.sim.url, {
      VCW_HTTP_ADDR: "127.0.0.1:0",
      VCW_DELIVERY_ATTEMPTS: "10",
      VCW_DELIVERY_BACKOFF_MS: "600000",
    });
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
  });

  it("lists them with their next attempt and reason, and no longer says every summary was delivered", async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${daemon!.http!.url}/`);
    await page.locator("#live", { hasText: "live" }).waitFor({ timeout: 10_000 });
    drop(inbox, "leads.csv", contactsCsv(3, { from: 90_000 }));
    const row = page.locator("#retrying-deliveries tbody tr td", { hasText: "crm" }).first();
    await row.waitFor({ timeout: 45_000 });
    const failed = (await page.locator("#failed-deliveries").textContent()) ?? "";
    expect(failed).not.toContain("every summary was delivered");
    expect(failed).toContain("some are retrying");
    const retrying = (await page.locator("#retrying-deliveries tbody").textContent()) ?? "";
    expect(retrying).toMatch(/crm/);
    await expect(page.locator("#preflights").textContent()).resolves.toContain("no test call yet");
  });
});
