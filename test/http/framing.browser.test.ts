import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { quietLogger, testSettings, writeJob } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { launch } from "./chromium.ts";

const TOKEN = "op-token-frames-8a7b6c5d4e3f";
const PAGES = [
  "/",
  "/admin/queues",
  "/admin/queues/queue/import",
  "/reports",
  "/reports/leads",
  "/campaigns",
  "/login",
];

describe("no page can be framed, and Bull Board fetches nothing from outside (issue 32 item 2)", () => {
  let daemon: Daemon;
  let url: string;
  let attacker: Server;
  let attackerUrl: string;
  let browser: Awaited<ReturnType<typeof launch>>;
  beforeAll(async () => {
    const home = tempDir("vcw-frames-");
    writeJob(join(home, "jobs"), "leads", join(home, "inbox"));
    const settings = testSettings(home, "http://127.0.0.1:9/api/v1", {
      VCW_HTTP_ADDR: "127.0.0.1:0",
      VCW_HTTP_TOKEN: TOKEN,
    });
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: false, work: false });
    url = daemon.http!.url;
    // Another port of the same host: the same site, so the SameSite=Strict cookie goes along.
    attacker = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").searchParams.get("path") ?? "/";
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<!doctype html><iframe id="f" src="${url}${path}" width="800" height="600" style="opacity:0.01"></iframe>`,
      );
    });
    await new Promise<void>((r) => attacker.listen(0, "127.0.0.1", r));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => attacker?.close(r));
    await daemon?.close();
  });

  it("a signed-in operator's browser shows no page of vcw inside another origin's frame", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${url}/login`);
    await page.locator('input[name="token"]').fill(TOKEN);
    await page.locator("button", { hasText: "Sign in" }).click();
    await page.waitForURL(`${url}/`);
    // Top level, the board is there for the operator (the control that the frame would show it).
    await page.goto(`${url}/admin/queues`);
    await page.getByText("import", { exact: false }).first().waitFor({ timeout: 15_000 });

    for (const path of PAGES) {
      const response = page.waitForResponse((r) => r.url().startsWith(`${url}${path === "/" ? "/" : path}`));
      await page.goto(`${attackerUrl}/?path=${encodeURIComponent(path)}`);
      const headers = (await response).headers();
      expect(headers["x-frame-options"], path).toBe("DENY");
      expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
      await page.waitForTimeout(300);
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      // Refused: the frame holds the browser's error page, not vcw's.
      const inside = await frame.evaluate<string>("document.documentElement.innerHTML").catch(() => "");
      expect(inside, path).not.toMatch(/vcw|queues|Sign in|Reports|campaign/i);
    }
  }, 90_000);

  it("Bull Board's page asks for nothing from another origin, and still draws its queues", async () => {
    const page = await browser.context.newPage();
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${TOKEN}` });
    const requested: string[] = [];
    const refused: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    page.on("console", (m) => {
      if (/Content Security Policy|Refused/i.test(m.text())) refused.push(m.text());
    });
    await page.goto(`${url}/admin/queues`);
    await page.getByText("delivery", { exact: false }).first().waitFor({ timeout: 15_000 });
    await page.waitForLoadState("networkidle");
    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((u) => !u.startsWith(`${url}/`) && !u.startsWith("data:"))).toEqual([]);
    expect(refused).toEqual([]);
  }, 60_000);
});
