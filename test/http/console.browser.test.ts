import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { RESULT_COLUMNS } from "../../src/pipeline/reports/results-csv.ts";
import { contactsCsv, drop, phoneOf, quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";
import { launch, SCREENSHOT, shotPath, updateShots } from "./chromium.ts";
import { campaignJobYaml, startHook } from "./console-fixtures.ts";

const TOKEN = "op-token-5d1f0c9e8b7a6d4c";
const CAMPAIGNS_SHOT = shotPath("campaigns.png");

/** A window that is not open now in Los Angeles: the campaign made in it waits. */
function closedWindow(): { from: string; to: string } {
  const hour = Number(
    new Intl.DateTimeFormat("en-US", {
      timeZone: "America/Los_Angeles",
      hour: "numeric",
      hourCycle: "h23",
    }).format(new Date()),
  );
  return hour < 12 ? { from: "20:00", to: "21:00" } : { from: "05:00", to: "06:00" };
}

describe("the operator's console in a real browser", () => {
  const t = useSimulator({ timeScale: 100 });
  let daemon: Daemon | undefined;
  let browser: Awaited<ReturnType<typeof launch>> | undefined;
  let hook: Awaited<ReturnType<typeof startHook>>;
  let home: string;
  let url: string;

  beforeAll(async () => {
    hook = await startHook();
    const assistant = `Ava ${randomBytes(3).toString("hex")}`;
    await t.client.assistants.create(validAssistant({ name: assistant }));
    const dialer = (await t.client.dialers.create(validDialer())).id!;
    home = tempDir("vcw-console-");
    mkdirSync(join(home, "jobs"));
    const job = (name: string, start: string[]) =>
      campaignJobYaml({
        name,
        inbox: join(home, name),
        segment: `${name}-${randomBytes(3).toString("hex")} {file}`,
        assistant,
        dialer,
        start,
        sinks: ["hook"],
      });
    writeFileSync(join(home, "jobs", "now.yaml"), job("now", ["  start: asap"]));
    const w = closedWindow();
    writeFileSync(
      join(home, "jobs", "later.yaml"),
      job("later", [
        "  start:",
        "    window:",
        "      days: [sun, mon, tue, wed, thu, fri, sat]",
        `      from: "${w.from}"`,
        `      to: "${w.to}"`,
        "      timezone: America/Los_Angeles",
      ]),
    );
    writeFileSync(join(home, "jobs", "sinks.yaml"), hook.sinksYaml);
    const settings = testSettings(home, t.sim.url, {
      VCW_HTTP_ADDR: "127.0.0.1:0",
      VCW_HTTP_TOKEN: TOKEN,
      VCW_DELIVERY_ATTEMPTS: "1",
    });
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    url = daemon.http!.url;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
    await hook?.close();
  });

  /** Clicks an action's button, confirms in the page's dialog, and returns the result it shows. */
  async function act(page: Page, button: ReturnType<Page["locator"]>) {
    await page.locator("#action-result").evaluate((e) => {
      e.textContent = "";
    });
    await button.click();
    await page.locator("dialog#confirm[open]").waitFor({ timeout: 5_000 });
    await page.locator("#confirm-yes").click();
    const out = page.locator("#action-result");
    await expect.poll(async () => out.textContent(), { timeout: 15_000 }).not.toMatch(/^(|working…)$/);
    return { text: (await out.textContent()) ?? "", ok: (await out.getAttribute("data-ok")) === "true" };
  }

  const contactsSent = async (page: Page) =>
    /vcw_api_requests_total\{operation="contacts.create"/.test(
      await (await page.request.get(`${url}/metrics`)).text(),
    );

  it("signs in, pauses a job and sees nothing sent, resumes it, retries a failed delivery, and stops a campaign waiting for its window", async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${url}/`);
    await page.locator('input[name="token"]').fill(TOKEN);
    await page.locator("button", { hasText: "Sign in" }).click();
    await page.locator("#live", { hasText: "live" }).waitFor({ timeout: 10_000 });
    await expect(page.locator("#signout").isVisible()).resolves.toBe(true);

    // Pause "now": a file dropped meanwhile is validated but nothing is sent.
    const paused = await act(page, page.locator('#jobs tr[data-job="now"] button', { hasText: "pause" }));
    expect(paused.ok).toBe(true);
    expect(paused.text).toContain("job now paused");
    await page.locator('#jobs tr[data-job="now"] .badge', { hasText: "paused" }).waitFor({ timeout: 10_000 });
    drop(join(home, "now"), "monday.csv", contactsCsv(4, { from: 40_000 }));
    await page.locator("#in-flight tbody tr", { hasText: "monday.csv" }).waitFor({ timeout: 15_000 });
    await page.waitForTimeout(2_000);
    expect(await contactsSent(page)).toBe(false);

    const resumed = await act(page, page.locator('#jobs tr[data-job="now"] button', { hasText: "resume" }));
    expect(resumed.text).toBe("job now resumed");
    await page.locator('#recent-files tr[data-file="monday.csv"]').waitFor({ timeout: 30_000 });
    expect(await contactsSent(page)).toBe(true);

    // Its summaries fail (the receiver answers 500, one attempt): retried from the page, delivered.
    const row = page.locator("#failed-deliveries tbody tr", { hasText: "hook" }).first();
    await row.waitFor({ timeout: 30_000 });
    hook.state.up = true;
    const retried = await act(page, row.locator("button", { hasText: "retry" }));
    expect(retried.ok).toBe(true);
    expect(retried.text).toContain("sent back to the queue");
    await waitFor(() => (hook.state.received > 0 ? true : undefined), 20_000, "delivered");

    // A campaign waiting for its window: said so with its zone; "stop" takes its contacts out.
    drop(join(home, "later"), "tuesday.csv", contactsCsv(3, { from: 41_000 }));
    const waiting = page.locator("#campaigns .campaign", { hasText: "tuesday.csv" });
    await waiting.waitFor({ timeout: 30_000 });
    await expect(waiting.locator("[data-phase]").textContent()).resolves.toMatch(
      /^waiting until (\d{4}-\d\d-\d\d )?\d\d:00 America\/Los_Angeles$/,
    );
    await expect(waiting.locator(".meta").textContent()).resolves.toMatch(
      /starts \d{4}-\d\d-\d\d \d\d:00 America\/Los_Angeles/,
    );
    const stopped = await act(page, waiting.locator("button", { hasText: "stop" }));
    expect(stopped.ok).toBe(true);
    expect(stopped.text).toMatch(
      /stop of campaign .* asked: its next poll takes every contact not yet called/,
    );

    const text = (await page.locator("body").textContent()) ?? "";
    for (const i of [40_000, 41_001]) expect(text).not.toContain(phoneOf(i).slice(2));
    await page.setViewportSize({ width: 1366, height: 900 });
    const shot = await page.screenshot({ fullPage: true });
    if (updateShots) writeFileSync(SCREENSHOT, shot);

    // Sign-out: the page asks for the token again.
    await page.locator("#signout button").click();
    await page.waitForURL(`${url}/login`);
    expect((await page.request.get(`${url}/api/overview`)).status()).toBe(401);
  }, 120_000);

  it("lists every campaign, filters them, opens one with its changes over time and its results; usable at 390 px", async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${url}/login`);
    await page.locator('input[name="token"]').fill(TOKEN);
    await page.locator("button", { hasText: "Sign in" }).click();
    await page.goto(`${url}/campaigns`);
    const rows = page.locator("#campaign-list tbody tr[data-campaign]");
    await expect.poll(async () => rows.count(), { timeout: 15_000 }).toBe(2);
    await expect(page.locator("#count").textContent()).resolves.toBe("2 campaigns");
    // Reach as every report defines it: per contact, labelled.
    await expect(rows.first().locator("td[data-reach]").textContent()).resolves.toMatch(
      /^(\d+ of \d+ contacts \(\d+(\.\d)?%\)|no contacts called)$/,
    );

    await page.locator('#filters select[name="job"]').selectOption("later");
    await page.locator("#filters button").click();
    await page.waitForURL(/job=later/);
    await expect.poll(async () => rows.count(), { timeout: 10_000 }).toBe(1);
    await expect(rows.first().getAttribute("data-phase")).resolves.toBe("waiting");
    await expect(rows.first().textContent()).resolves.toContain("America/Los_Angeles");

    await page.goto(`${url}/campaigns?job=now`);
    await expect.poll(async () => rows.count(), { timeout: 10_000 }).toBe(1);
    await rows.first().locator("a").first().click();
    await page.waitForURL(/\/campaigns\/[^/?]+$/);
    const timeline = page.locator("#timeline tbody tr");
    await expect.poll(async () => timeline.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect(timeline.first().textContent()).resolves.toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const csv = await page.request.get(`${url}${await page.locator("#one-results").getAttribute("href")}`);
    expect(csv.status()).toBe(200);
    const body = await csv.text();
    // The one results CSV (issue 40): the file sink's columns, in its order.
    expect(body.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe(RESULT_COLUMNS.join(","));
    // Four contacts: a transcript's line breaks stay in its quoted cell.
    expect(Papa.parse(body.replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data).toHaveLength(5);
    expect(body).not.toContain(phoneOf(40_000).slice(2));
    expect(body).toMatch(/\+14•+\d\d/);
    if (updateShots) {
      await page.goto(`${url}/campaigns`);
      await rows.first().waitFor();
      writeFileSync(CAMPAIGNS_SHOT, await page.screenshot({ fullPage: true }));
    }

    // Bull Board's own page sends the CSRF token back by itself (its axios reads XSRF-TOKEN).
    const boardCall = page.waitForRequest((r) => r.url().includes("/admin/queues/api/queues"));
    await page.goto(`${url}/admin/queues`);
    expect((await (await boardCall).allHeaders())["x-xsrf-token"]).toBeTruthy();

    // A phone's width: the page does not widen past it; the campaigns table becomes a card per
    // campaign (each value beside its column's name), every value on screen, none scrolled away.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/", "/campaigns"]) {
      await page.goto(`${url}${path}`);
      await page.locator("table tbody tr").first().waitFor({ timeout: 10_000 });
      const width = await page.evaluate("document.documentElement.scrollWidth");
      expect(width, path).toBeLessThanOrEqual(390);
    }
    const card = rows.first();
    await card.waitFor();
    for (const cell of await card.locator("td").all()) {
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await cell.getAttribute("data-label")).toBeTruthy();
    }
    const [first, second] = await card.locator("td").all();
    // Stacked: the second value is below the first, not beside it.
    expect((await second!.boundingBox())!.y).toBeGreaterThan((await first!.boundingBox())!.y);
    await expect(
      page.evaluate(
        `getComputedStyle(document.querySelector("#campaign-list tbody tr td:nth-child(2)"), "::before").content`,
      ),
    ).resolves.toBe('"job"');
    if (updateShots) writeFileSync(shotPath("campaigns-390.png"), await page.screenshot({ fullPage: true }));
    await page.goto(`${url}/`);
    await page.locator(".campaign").first().waitFor();
    if (updateShots) writeFileSync(shotPath("dashboard-390.png"), await page.screenshot({ fullPage: true }));

    // Every page names its icon, and the icon answers without a sign-in.
    for (const path of ["/", "/campaigns", "/reports", "/login"]) {
      await page.goto(`${url}${path}`);
      await expect(page.locator('link[rel="icon"]').getAttribute("href"), path).resolves.toBe("/favicon.ico");
    }
    const icon = await fetch(`${url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toMatch(/^<svg/);
  }, 60_000);
});
