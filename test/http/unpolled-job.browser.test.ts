import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { quietLogger, testSettings, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";
import { launch } from "./chromium.ts";

/**
 * A job file removed while its campaigns call: nobody polls or stops them any more, and the pages
 * said nothing (the read model walked the loaded jobs only). Now the dashboard names the job and
 * why (no running vcw start loads it, or loads it without a campaign section), and the campaigns view
 * still lists its campaigns.
 */
describe("a job loaded nowhere, in a real browser", () => {
  const t = useSimulator();
  let daemon: Daemon | undefined;
  let browser: Awaited<ReturnType<typeof launch>> | undefined;

  beforeAll(async () => {
    const home = tempDir("vcw-unpolled-");
    writeJob(join(home, "jobs"), "leads", join(home, "inbox"));
    const settings = testSettings(home, t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0" });
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: false, work: false });
    const started = new Date(Date.now() - 60_000).toISOString();
    await daemon.stores.store.register(
      campaignInfo({ id: "cmp_leads", name: "leads a.csv", job: "leads", scheduledAt: started }),
      Date.now(),
    );
    // Made by a job whose file is gone from jobs/ (this daemon never loaded it).
    for (const id of ["cmp_retired_1", "cmp_retired_2"])
      await daemon.stores.store.register(
        campaignInfo({ id, name: `retired ${id}.csv`, job: "retired", scheduledAt: started }),
        Date.now(),
      );
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.close();
  });

  it("the dashboard names the job and its campaigns not polled; the campaigns view lists them", async () => {
    // A vcw start beside this daemon (which ticks nothing: watch off), as its presence says: it loads
    // "leads" (no campaign section: writeJob's), not "retired".
    await daemon!.stores.presence.write("a-start", {
      role: "start",
      host: "h",
      pid: 1,
      http: null,
      startedAt: new Date().toISOString(),
      ticks: [],
      loaded: ["leads"],
    });
    const page = await browser!.context.newPage();
    await page.goto(`${daemon!.http!.url}/`);
    const row = page.locator('#jobs tr[data-job="retired"]');
    await row.waitFor({ timeout: 15_000 });
    await expect(row.getAttribute("data-unpolled")).resolves.toBe("2");
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("no running vcw start loads its job file");
    expect(text).toContain("put the file back in the jobs folder");
    expect(text).toContain("2 active campaigns not polled");
    // Drawn red, as a failure is (a badge class with no style of its own drew it grey).
    const badge = page.locator('#jobs tr[data-job="retired"] .badge');
    const colours = await badge.evaluate((e) => {
      // Page code (the tests' types have no DOM).
      const { getComputedStyle } = globalThis as unknown as {
        getComputedStyle(e: unknown): { backgroundColor: string; color: string };
      };
      return [getComputedStyle(e).backgroundColor, getComputedStyle(e).color];
    });
    // --bad (#d64545) on the failures' pale red.
    expect(colours).toEqual(["rgb(251, 231, 231)", "rgb(214, 69, 69)"]);
    // The loaded job has no campaign section (writeJob's): nothing here polls its campaign either, and
    // the row says that reason, beside the job's own row.
    const bare = page.locator('#jobs tr[data-job="leads"][data-unpolled]');
    await expect(bare.getAttribute("data-unpolled")).resolves.toBe("1");
    const bareText = (await bare.textContent()) ?? "";
    expect(bareText).toContain("its job file has no campaign section");
    expect(bareText).toContain("1 active campaign not polled");
    await expect(page.locator('#jobs tr[data-job="leads"]:not([data-unpolled])').count()).resolves.toBe(1);

    await page.goto(`${daemon!.http!.url}/campaigns`);
    const rows = page.locator("#campaign-list tbody tr[data-campaign]");
    await expect.poll(async () => rows.count(), { timeout: 15_000 }).toBe(3);
    await expect(page.locator('#campaign-list tr[data-campaign="cmp_retired_2"]').count()).resolves.toBe(1);
  });
});
