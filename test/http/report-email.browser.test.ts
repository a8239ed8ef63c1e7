import { writeFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportEmail } from "../../src/sinks/email/report-email.ts";
import { launchChromium } from "../support/browser.ts";
import { followUpReport } from "../support/report-fixture.ts";
import { shotPath, updateShots } from "./chromium.ts";

type Box = { x: number; y: number; width: number; height: number };

/** The boxes of the elements `selector` finds, in document order. */
const boxes = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  ) as Promise<Box[]>;

/** Cells of each row of the table `selector`, as boxes: [row][cell]. */
const rowCells = (page: Page, selector: string) =>
  page.locator(`${selector} tr`).evaluateAll((rows) =>
    rows.map((tr) =>
      [...tr.children].map((td) => {
        const r = td.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    ),
  ) as Promise<Box[][]>;

/**
 * The e-mail as a mail client shows it: its charts put back from the attachments, and, as Outlook
 * does, its `<style>` dropped. Its layout (inline styles and tables) must hold without it.
 */
describe("the report e-mail, rendered in a real browser with and without its <style>", () => {
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let html = "";

  beforeAll(async () => {
    const mail = await reportEmail(followUpReport());
    html = mail.images.reduce(
      (h, img) => h.replaceAll(`cid:${img.cid}`, `data:image/png;base64,${img.content.toString("base64")}`),
      mail.html,
    );
    browser = await launchChromium({ width: 760, height: 900 });
  });
  afterAll(async () => browser?.close());

  it("without <style>: the figures three to a row, each row's cells level; the campaigns a table", async () => {
    const page = await browser!.context.newPage();
    const bare = html.replace(/<style>[\s\S]*?<\/style>/g, "");
    expect(bare).not.toContain("<style");
    await page.setContent(bare);
    const cards = await rowCells(page, "table.cards");
    expect(cards.map((row) => row.length)).toEqual([3, 3]);
    for (const row of cards) {
      expect(new Set(row.map((c) => Math.round(c.y))).size).toBe(1);
      expect(row[0]!.x).toBeLessThan(row[1]!.x);
      expect(row[1]!.x).toBeLessThan(row[2]!.x);
      for (const c of row) expect(c.width).toBeGreaterThan(150);
    }
    expect(cards[1]![0]!.y).toBeGreaterThan(cards[0]![0]!.y);
    // A card is a card by its inline style: white, bordered.
    await expect(
      page.evaluate(
        `(() => { const s = getComputedStyle(document.querySelector("td.card")); return [s.backgroundColor, s.borderTopWidth]; })()`,
      ),
    ).resolves.toEqual(["rgb(255, 255, 255)", "1px"]);
    const values = await page.locator("td.card .value").allTextContents();
    expect(values).toContain("2 of 6 contacts (33.3%)");
    expect(values).toContain("2 of 9 calls (22.2%)");
    for (const row of await rowCells(page, "table.campaigns")) {
      expect(row.length).toBeGreaterThanOrEqual(5);
      expect(new Set(row.map((c) => Math.round(c.y))).size).toBe(1);
    }
    // The charts are images that fit the width.
    for (const img of await boxes(page, ".figure img")) {
      expect(img.width).toBeGreaterThan(400);
      expect(img.x + img.width).toBeLessThanOrEqual(760);
    }
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(760);
    if (updateShots)
      writeFileSync(shotPath("report-email-no-style.png"), await page.screenshot({ fullPage: true }));
  });

  it("with <style>, at a phone's 390 px: the figures stacked, each campaign a card, nothing wider", async () => {
    const page = await browser!.context.newPage();
    await page.setContent(html);
    if (updateShots) writeFileSync(shotPath("report-email.png"), await page.screenshot({ fullPage: true }));
    await page.setViewportSize({ width: 390, height: 844 });
    const cards = await boxes(page, "td.card");
    expect(cards).toHaveLength(6);
    for (let i = 1; i < cards.length; i += 1) expect(cards[i]!.y).toBeGreaterThan(cards[i - 1]!.y);
    for (const row of await rowCells(page, "table.campaigns tbody")) {
      expect(row[1]!.y).toBeGreaterThan(row[0]!.y);
      for (const c of row) expect(c.x + c.width).toBeLessThanOrEqual(390);
    }
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    if (updateShots)
      writeFileSync(shotPath("report-email-390.png"), await page.screenshot({ fullPage: true }));
  });
});
