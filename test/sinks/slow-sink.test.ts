import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { emptyTotals, summarize } from "../../src/pipeline/model/campaign-totals.ts";
import { quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { campaignInfo } from "../support/fixtures.ts";
import { sendJson, startHttpServer, type TestServer } from "../support/http-server.ts";

/** Issue 17, item 6: a receiver that takes 30 s to answer holds no delivery to another sink. */
describe("one slow sink delays no other", () => {
  let daemon: Daemon | undefined;
  const servers: TestServer[] = [];
  afterEach(async () => {
    // The slow receiver's connections are cut first: the daemon's stop doesn't wait 30 s for them.
    for (const s of servers.splice(0)) await s.close();
    await daemon?.close();
    daemon = undefined;
  });

  it("a receiver answering in 30 s and a healthy one: the healthy one gets its deliveries promptly", async () => {
    const slow = await startHttpServer((_req, res) => {
      const timer = setTimeout(() => sendJson(res, 200, {}), 30_000);
      res.on("close", () => clearTimeout(timer));
    });
    const healthy = await startHttpServer((_req, res) => sendJson(res, 200, {}));
    servers.push(slow, healthy);
    const home = tempDir("vcw-slow-sink-");
    mkdirSync(join(home, "jobs"));
    writeFileSync(
      join(home, "jobs", "sinks.yaml"),
      [
        "sinks:",
        "  slow:",
        "    type: webhook",
        `    url: ${slow.url}/hook`,
        "    timeoutMs: 35000",
        "  healthy:",
        "    type: webhook",
        `    url: ${healthy.url}/hook`,
      ].join("\n"),
    );
    const settings = testSettings(home, "http://127.0.0.1:9/api/v1", { VCW_SHUTDOWN_GRACE_MS: "1000" });
    daemon = await startDaemon({ settings, logger: quietLogger(), watch: false, work: true });
    const payload = (i: number) =>
      summarize(
        campaignInfo({
          id: `cmp-${i}`,
          name: `campaign ${i}`,
          job: "leads",
          file: "a.csv",
          state: "finished",
        }),
        emptyTotals(),
        1,
        "final",
        Date.now(),
      );
    const tag = randomBytes(3).toString("hex");
    // More slow deliveries than the whole worker's concurrency used to be, queued first.
    for (let i = 0; i < 12; i++)
      await daemon.queues.deliveries.add("final", {
        sink: "slow",
        idempotencyKey: `s-${tag}-${i}`,
        payload: payload(i),
      });
    await waitFor(() => (slow.requests.length >= 4 ? true : undefined), 10_000, "the slow receiver busy");
    const sentAt = Date.now();
    for (let i = 0; i < 6; i++)
      await daemon.queues.deliveries.add("final", {
        sink: "healthy",
        idempotencyKey: `h-${tag}-${i}`,
        payload: payload(100 + i),
      });
    await waitFor(() => (healthy.requests.length >= 6 ? true : undefined), 10_000, "six healthy deliveries");
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    // The slow receiver is held to its own share: it never has every delivery slot.
    expect(slow.requests.length).toBeLessThanOrEqual(4);
  }, 60_000);
});
