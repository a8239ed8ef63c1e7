import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { launchChromium } from "../support/browser.ts";
import { contactsCsv, drop, phoneOf, quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useRedis } from "../support/redis.ts";
import { useSimulator } from "../support/simulator.ts";
import { shotPath, updateShots } from "./chromium.ts";

/** `VCW_UPDATE_SCREENSHOT=1` also writes the README's picture. */
const SCREENSHOT = shotPath("report-page.png");
const TOKEN = "reports-token-7f3e9a1c5b2d8e4f";

describe("the Reports view in a real browser", () => {
  const t = useSimulator({
    timeScale: 600,
    callModel: {
      outcomes: { completed: 55, "no-answer": 20, busy: 0, voicemail: 10, failed: 0, "opted-out": 15 },
    },
  });
  const { redis } = useRedis();
  let daemon: Daemon | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let job: string;
  let inbox: string;
  let prefix: string;

  beforeAll(async () => {
    const assistant = `Ivy ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: assistant }));
    const dialer = (await t.client.dialers.create(validDialer())).id!;
    const home = tempDir("vcw-reports-");
    inbox = join(home, "inbox");
    job = `leads-${randomBytes(3).toString("hex")}`;
    mkdirSync(join(home, "jobs"));
    writeFileSync(
      join(home, "jobs", "leads.yaml"),
      [
        `name: ${job}`,
        `inbox: ${inbox}`,
        `segment: { name: "${job} {file}" }`,
        "contacts: { country: US }",
        "campaign:",
        `  assistant: { name: ${assistant} }`,
        `  dialer: { id: ${dialer} }`,
        "  start: asap",
        'polling: { schedule: "* * * * * *" }',
      ].join("\n"),
    );
    const settings = testSettings(home, t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0", VCW_HTTP_TOKEN: TOKEN });
    prefix = settings.prefix.value;
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    browser = await launchChromium({ width: 390, height: 844 });
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
  });

  it("shows the last 24 hours of a job with its charts, behind the dashboard's token, readable at 390 px", async () => {
    drop(inbox, "monday.csv", contactsCsv(20, { from: 60_000, extra: ["12,Too Short,"] }));
    drop(inbox, "tuesday.csv", contactsCsv(10, { from: 61_000 }));
    const store = createCampaignStore(redis, redisKeys(prefix));
    await waitFor(
      async () => {
        const ids = await store.allOf(job);
        const all = await Promise.all(ids.map((id) => store.get(id)));
        return ids.length === 2 && all.every((s) => s?.info.state === "finished") ? true : undefined;
      },
      60_000,
      "both campaigns finished",
    );
    const url = daemon!.http!.url;
    const page = await browser!.context.newPage();
    expect((await page.request.get(`${url}/reports/${job}`)).status()).toBe(401);
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${TOKEN}` });

    await page.goto(`${url}/reports`);
    await page.locator("a", { hasText: "last 7 days" }).first().waitFor();
    // The dashboard's header and style (its stylesheet loaded: the header is its dark bar).
    await expect(page.locator("header a", { hasText: "dashboard" }).count()).resolves.toBe(1);
    await expect(
      page.evaluate(`getComputedStyle(document.querySelector("header")).backgroundColor`),
    ).resolves.toBe("rgb(29, 35, 43)");
    await page.locator("a", { hasText: "last 24 hours" }).first().click();
    await page.locator("h1").waitFor();
    await expect(page.locator("h1").textContent()).resolves.toBe(`Job ${job}: report for the last 24 hours`);
    await expect(page.locator("header a", { hasText: "campaigns" }).getAttribute("href")).resolves.toBe(
      "/campaigns",
    );
    // Three charts, drawn as SVG with their marks, each fitting the phone's width.
    const charts = page.locator(".figure svg");
    await expect(charts.count()).resolves.toBe(3);
    for (const svg of await charts.all()) {
      const box = (await svg.boundingBox())!;
      expect(box.width).toBeGreaterThan(200);
      expect(box.width).toBeLessThanOrEqual(390);
      expect(await svg.locator("path, rect").count()).toBeGreaterThan(3);
    }
    const bodyWidth = await page.evaluate("document.documentElement.scrollWidth");
    expect(bodyWidth).toBeLessThanOrEqual(390);
    const cards = (await page.locator(".cards").textContent()) ?? "";
    expect(cards).toContain("Contacts called30");
    expect(cards).toContain("Calls ended30");
    // Reach per contact and per call, each labelled (no follow-ups here: the two agree).
    expect(cards).toMatch(/Reached\d+ of 30 contacts \(\d+(\.\d)?%\)/);
    expect(cards).toMatch(/Reached per call\d+ of 30 calls \(\d+(\.\d)?%\)/);
    const text = (await page.locator("body").textContent()) ?? "";
    expect(text).toContain("2 files imported, 0 rejected");
    // Each campaign links to its page and its CSV on this dashboard; the page opens.
    const campaignRows = page.locator("table.campaigns tbody tr");
    await expect(campaignRows.count()).resolves.toBe(2);
    const pageLink = campaignRows.first().locator("a", { hasText: "page" });
    const href = (await pageLink.getAttribute("href"))!;
    expect(href).toMatch(/^\/campaigns\/[^/]+$/);
    await expect(campaignRows.first().locator("a", { hasText: "CSV" }).getAttribute("href")).resolves.toBe(
      `${href}/results.csv`,
    );
    const csv = await page.request.get(`${url}${href}/results.csv`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(csv.status()).toBe(200);
    // Its file is named by the campaign's name and id.
    expect(csv.headers()["content-disposition"]).toMatch(
      /filename\*=UTF-8''[^']*monday\.csv[^']*\.cmp_[^']+\.results\.csv$/,
    );
    // At 390 px each campaign is a card of label and value, all on screen.
    for (const cell of await campaignRows.first().locator("td").all()) {
      const box = (await cell.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    // Its icon, and its footer's time in the report's zone.
    await expect(page.locator('link[rel="icon"]').getAttribute("href")).resolves.toBe("/favicon.ico");
    expect(text).toMatch(/Made \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    expect(text).toContain("monday.csv");
    expect(text).toMatch(/as observed by polling/);
    for (const i of [60_000, 61_005]) expect(text).not.toContain(phoneOf(i).slice(2));

    // The week, wider.
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.locator("nav a", { hasText: "last 7 days" }).click();
    await expect(page.locator("h1").textContent()).resolves.toBe(`Job ${job}: report for the last 7 days`);
    await expect(page.locator(".figure svg").count()).resolves.toBe(3);
    const shot = await page.screenshot({ fullPage: true });
    expect(shot.length).toBeGreaterThan(20_000);
    if (updateShots) writeFileSync(SCREENSHOT, shot);
    await pageLink.click();
    await page.waitForURL(`${url}${href}`);
    await page.locator("#one-name").waitFor();

    // Print: no header, no navigation.
    await page.goBack();
    await page.emulateMedia({ media: "print" });
    for (const part of await page.locator(".vcw-header").all())
      await expect(part.isVisible()).resolves.toBe(false);
  }, 120_000);
});
