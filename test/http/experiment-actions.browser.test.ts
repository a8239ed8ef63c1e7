import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { launchChromium } from "../support/browser.ts";
import { testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { captureLogs } from "../support/log-capture.ts";
import { useSimulator } from "../support/simulator.ts";

const TOKEN = "op-token-exp-3a9c1e7d5b";
const bearer = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

interface JobRow {
  name: string;
  experiment?: { variants: { name: string; state: string; reason?: string }[] };
}

describe("an experiment's actions on the dashboard (the code vcw experiment runs too)", () => {
  const t = useSimulator();
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  it("the overview lists each variant's state; stop and promote by POST /api/actions, refusals said, all logged", async () => {
    const home = tempDir("vcw-exp-act-");
    mkdirSync(join(home, "jobs"));
    writeFileSync(
      join(home, "jobs", "leads.yaml"),
      [
        "name: leads",
        `inbox: ${join(home, "inbox")}`,
        "segment: { name: leads }",
        "campaign:",
        "  variants:",
        "    - { name: a, assistant: { id: a1 }, share: 1 }",
        "    - { name: b, assistant: { id: a2 }, share: 1 }",
        "    - { name: c, assistant: { id: a3 }, share: 2 }",
        "  dialer: { id: d1 }",
      ].join("\n"),
    );
    const { logger, text } = captureLogs();
    const settings = testSettings(home, t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0", VCW_HTTP_TOKEN: TOKEN });
    daemon = await startDaemon({ settings, logger, watch: true, work: true });
    await daemon.ready;
    const url = daemon.http!.url;
    const act = async (action: object) => {
      const r = await fetch(`${url}/api/actions`, {
        method: "POST",
        headers: bearer,
        body: JSON.stringify({ ...action, confirmed: true }),
      });
      return { status: r.status, ...((await r.json()) as { ok: boolean; count: number; message: string }) };
    };
    const states = async () => {
      const o = (await (await fetch(`${url}/api/overview`, { headers: bearer })).json()) as {
        jobs: JobRow[];
      };
      return Object.fromEntries(
        o.jobs.find((j) => j.name === "leads")!.experiment!.variants.map((v) => [v.name, v.state]),
      );
    };
    // The overview is read again every moment: wait for it to show each decision.
    const become = (want: Record<string, string>) =>
      waitFor(
        async () => {
          const now = await states();
          return JSON.stringify(now) === JSON.stringify(want) ? now : undefined;
        },
        10_000,
        `variants ${JSON.stringify(want)}`,
      );
    await become({ a: "open", b: "open", c: "open" });

    // On the page: each variant's state, and a's stop button, confirmed in the dialog.
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${url}/`);
      await page.locator('input[name="token"]').fill(TOKEN);
      await page.locator("button", { hasText: "Sign in" }).click();
      const row = page.locator('#jobs tr[data-job="leads"]');
      await row.locator(".experiment", { hasText: "variant c: open" }).waitFor({ timeout: 10_000 });
      await expect(row.locator("button", { hasText: /^promote variant/ }).count()).resolves.toBe(3);
      await row.locator("button", { hasText: "stop variant a" }).click();
      await page.locator("dialog#confirm[open]").waitFor({ timeout: 5_000 });
      await page.locator("#confirm-yes").click();
      const out = page.locator("#action-result");
      await expect
        .poll(async () => out.textContent(), { timeout: 15_000 })
        .toMatch(/^a: stopped by the operator at /);
      await row.locator(".experiment", { hasText: "variant a: stopped" }).waitFor({ timeout: 10_000 });
      await expect(row.locator("button", { hasText: "variant a" }).count()).resolves.toBe(0);
    } finally {
      await browser.close();
    }
    await become({ a: "stopped", b: "open", c: "open" });
    expect(await act({ kind: "experiment-stop", job: "leads", variant: "a" })).toMatchObject({
      status: 409,
      message: expect.stringMatching(/^a was stopped already/),
    });
    expect(await act({ kind: "experiment-stop", job: "leads", variant: "z" })).toMatchObject({ status: 409 });

    const promoted = await act({ kind: "experiment-promote", job: "leads", variant: "c" });
    expect(promoted).toMatchObject({ status: 200, count: 2 });
    await become({ a: "stopped", b: "stopped", c: "promoted" });
    expect(text()).toMatch(/"action":"stop variant a of job leads"/);
    expect(text()).toMatch(/"who":"token","action":"promote variant c of job leads"/);
  });
});
