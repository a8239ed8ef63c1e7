import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { callingJob, UNREACHABLE_CRM_SINKS } from "../support/calling-job.ts";
import { contactsCsv, drop, phoneOf, quietLogger, testSettings } from "../support/daemon.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";
import { launch } from "./chromium.ts";

describe("the dashboard in a real browser", () => {
  // The simulated clock keeps real time until the page shows both bars' values, then the test moves it
  // on by steps: the page is seen before the first call ends and between the first and the last,
  // however late the first poll comes (at a fixed speed-up, every call could end before it).
  const t = useSimulator({
    timeScale: 1,
    callModel: {
      outcomes: { completed: 50, "no-answer": 20, busy: 0, voicemail: 15, failed: 0, "opted-out": 15 },
    },
  });
  let daemon: Daemon | undefined;
  let browser: Awaited<ReturnType<typeof launch>> | undefined;
  let inbox: string;
  let job: string;

  beforeAll(async () => {
    const assistant = `Ava ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: assistant }));
    const dialer = (await t.client.dialers.create(validDialer())).id!;
    const made = callingJob({
      assistant: { name: assistant },
      dialerId: dialer,
      description: "Leads from the CRM",
      segment: "{job} {file}",
      extra: ["summaries:", "  sinks: [log, crm]"],
    });
    ({ inbox, name: job } = made);
    // A receiver that isn't there: its deliveries fail at once, for the failed deliveries table.
    writeFileSync(join(made.home, "jobs", "sinks.yaml"), UNREACHABLE_CRM_SINKS);
    const settings = testSettings(made.home, t.sim.url, {
      VCW_HTTP_ADDR: "127.0.0.1:0",
      VCW_DELIVERY_ATTEMPTS: "1",
    });
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
  });

  it("a dropped file appears, its campaign's progress bar moves to finished, phones stay masked", async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${daemon!.http!.url}/`);
    await page.locator("#live", { hasText: "live" }).waitFor({ timeout: 10_000 });
    await expect(page.locator(`#jobs tr[data-job="${job}"]`).textContent()).resolves.toContain("running");
    await expect(page.locator("#campaigns").textContent()).resolves.toContain("no campaign yet");
    // Every value a campaign's bar takes, as the page draws it (page code: the tests' types have no DOM).
    await page.evaluate(`
      window.seen = {};
      new MutationObserver(() => {
        for (const c of document.querySelectorAll("#campaigns .campaign")) {
          const now = c.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow");
          const values = (window.seen[c.dataset.campaign] ??= []);
          if (now && values.at(-1) !== now) values.push(now);
        }
      }).observe(document.getElementById("campaigns"), { childList: true, subtree: true });
    `);

    drop(inbox, "monday.csv", contactsCsv(12, { from: 70_000 }));
    drop(inbox, "tuesday.csv", contactsCsv(6, { from: 80_000, extra: ["12,Too Short,x@example.com"] }));

    // The files show up as they finish, with a link to the error report where there is one.
    const monday = page.locator('#recent-files tr[data-file="monday.csv"]');
    await monday.waitFor({ timeout: 20_000 });
    await expect(monday.textContent()).resolves.toContain("12 = 12 valid");
    const tuesday = page.locator('#recent-files tr[data-file="tuesday.csv"]');
    await tuesday.waitFor({ timeout: 20_000 });
    const link = tuesday.locator("a", { hasText: "error report" });
    const href = await link.getAttribute("href");
    const report = await page.request.get(`${daemon!.http!.url}${href}`);
    expect(report.status()).toBe(200);
    expect(await report.text()).toContain("phone_too_short");

    // Each campaign appears with its bar, which ends full when every call is final.
    // Both bars with a value (a bar before the campaign's first poll has none): the simulated clock
    // moves on only then, so a value below 12 is drawn first however late that poll comes.
    const bars = page.locator('#campaigns .campaign [role="progressbar"][aria-valuenow]');
    await expect.poll(async () => bars.count(), { timeout: 20_000, interval: 100 }).toBe(2);
    const finished = page.locator('#campaigns .campaign[data-state="finished"]');
    // Half a simulated minute every quarter of a second: the calls end over a few real seconds.
    await expect
      .poll(
        async () => {
          t.sim.clock.advance(30_000);
          return finished.count();
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(2);
    for (const bar of await finished.locator('[role="progressbar"]').all()) {
      const now = await bar.getAttribute("aria-valuenow");
      expect(Number(now)).toBeGreaterThan(0);
      expect(now).toBe(await bar.getAttribute("aria-valuemax"));
    }
    const big = finished.filter({ hasText: "monday.csv" });
    await expect(big.locator('[role="progressbar"]').getAttribute("aria-valuenow")).resolves.toBe("12");
    // The bar moved: it was drawn below 12 before it was full.
    const id = (await big.getAttribute("data-campaign"))!;
    const values = (await page.evaluate(`window.seen[${JSON.stringify(id)}]`)) as string[] | undefined;
    expect(values!.at(-1)).toBe("12");
    expect(values!.some((v) => Number(v) < 12)).toBe(true);
    await expect(big.locator(".chip").first().textContent()).resolves.toMatch(/^[a-z-]+ \d+$/);
    // Its reach, as every report defines it: per contact, of the 12 called.
    await expect(big.locator(".chip.reach").textContent()).resolves.toMatch(
      /^reached \d+ of 12 contacts \(\d+(\.\d)?%\)$/,
    );

    // The failed deliveries of the missing receiver are listed.
    await page
      .locator("#failed-deliveries tbody tr td", { hasText: "crm" })
      .first()
      .waitFor({ timeout: 20_000 });

    // No phone number on the page, only masked ones.
    const text = (await page.locator("body").textContent()) ?? "";
    for (const i of [70_000, 70_005, 80_001]) expect(text).not.toContain(phoneOf(i).slice(2));
    expect(text).toMatch(/\+14•+\d\d/);
    await expect(page.locator("#phones").isDisabled()).resolves.toBe(true);

    const shot = await page.screenshot({ fullPage: true });
    expect(shot.length).toBeGreaterThan(10_000);
  });
});
