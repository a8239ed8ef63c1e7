import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import type { CampaignInfo, StartCheckResult } from "../../src/pipeline/model/results.ts";
import { quietLogger, testSettings, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { startCheckResult } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";
import { launch } from "./chromium.ts";

const CHECK = startCheckResult();

/**
 * The campaigns view's repair badge: what the check before the start repaired, and the late copies
 * taken on by it or by the looks after it (decisions 0062, 0065), as `vcw campaigns` says them.
 */
describe("the campaigns view's repair badge in a real browser", () => {
  const t = useSimulator();
  let daemon: Daemon | undefined;
  let browser: Awaited<ReturnType<typeof launch>> | undefined;

  beforeAll(async () => {
    const home = tempDir("vcw-badge-");
    writeJob(join(home, "jobs"), "leads", join(home, "inbox"));
    const settings = testSettings(home, t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0" });
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: false, work: false });
    const kept = async (id: string, file: string, check: StartCheckResult) => {
      const info: CampaignInfo = {
        id,
        name: `leads ${file}`,
        job: "leads",
        file,
        sha256: id,
        gen: 0,
        segmentId: `seg_${id}`,
        scheduledAt: new Date(Date.now() - 60_000).toISOString(),
        state: "active",
        attempt: 0,
        followUps: [],
      };
      await daemon!.stores.store.register(info, Date.now());
      await daemon!.stores.store.noteStartCheck(id, check);
    };
    await kept("cmp_twice", "twice.csv", {
      ...CHECK,
      copiesAdopted: 1,
      adoptedAfterCheck: 1,
      calledTwice: 20,
    });
    await kept("cmp_emptied", "emptied.csv", { ...CHECK, copiesAdopted: 1, adoptedAfterCheck: 1 });
    await kept("cmp_repaired", "call +1 415 555 0199.csv", {
      ...CHECK,
      campaignsRepaired: 1,
      repairedInto: "leads call +1 415 555 0199.csv repaired 1",
    });
    await kept("cmp_dup", "dup.csv", { ...CHECK, campaignsListed: 1, duplicatesRemoved: 1, withdrawn: 2 });
    await kept("cmp_clean", "clean.csv", { ...CHECK, campaignsListed: 1 });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
  });

  it("shows late copies taken on and the calls made twice; a repair's campaign named with its phone masked", async () => {
    const page = await browser!.context.newPage();
    await page.goto(`${daemon!.http!.url}/campaigns`);
    const rows = page.locator("#campaign-list tbody tr[data-campaign]");
    await expect.poll(async () => rows.count(), { timeout: 15_000 }).toBe(5);
    const badge = (id: string) =>
      page.locator(`#campaign-list tr[data-campaign="${id}"] .badge[data-repaired]`);

    const row = async (id: string) =>
      (await page.locator(`#campaign-list tr[data-campaign="${id}"]`).textContent()) ?? "";
    expect(await row("cmp_twice")).toContain("repaired: 1 late copy taken on, 20 calls made twice");
    expect(await row("cmp_emptied")).toContain("repaired: 1 late copy taken on");
    expect(await row("cmp_clean")).not.toContain("repaired");
    const twice = badge("cmp_twice");
    await expect(twice.textContent()).resolves.toBe("repaired: 1 late copy taken on, 20 calls made twice");
    await expect(twice.getAttribute("data-late-copies")).resolves.toBe("1");
    await expect(twice.getAttribute("data-called-twice")).resolves.toBe("20");
    await expect(badge("cmp_emptied").textContent()).resolves.toBe("repaired: 1 late copy taken on");
    await expect(badge("cmp_emptied").getAttribute("data-called-twice")).resolves.toBe("0");
    const repaired = (await badge("cmp_repaired").textContent()) ?? "";
    expect(repaired).toMatch(/^repaired: called by leads call \+1/);
    expect(repaired).not.toContain("555 0199");
    await expect(badge("cmp_clean").count()).resolves.toBe(0);
    // Counted in words, as every page counts ("duplicate(s)" before).
    await expect(badge("cmp_dup").textContent()).resolves.toBe("repaired: 1 duplicate removed, 2 withdrawn");

    // The campaign's own page says the same.
    await page.goto(`${daemon!.http!.url}/campaigns/cmp_twice`);
    await expect
      .poll(async () => page.locator("#one-name").textContent(), { timeout: 10_000 })
      .toContain("repaired: 1 late copy taken on, 20 calls made twice");
  });
});
