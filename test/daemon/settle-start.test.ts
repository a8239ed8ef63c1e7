import { describe, expect, it } from "vitest";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { contactsCsv, drop, testSettings, waitFor } from "../support/daemon.ts";

/**
 * Issue 28: an asap campaign starts no sooner than VCW_SETTLE_MS after its create (a late copy is
 * found before anyone is called), unless every create carries an Idempotency-Key: then no copy can
 * be made and nothing is waited for. The daemon's processors read the ledger's settle time.
 */
describe("a campaign's start and the settle time", () => {
  // Real time: the simulator's started_at is then the start vcw asked for (a faster clock keeps
  // real time before a start too, but reports simulated times).
  const h = useCallingDaemon({ timeScale: 1, idempotencyKeys: true });
  const { t } = h;

  async function startOfFirstCampaign(extra: NodeJS.ProcessEnv): Promise<number> {
    const { home, inbox, name } = h.callingJob({ byId: true, schedule: "0 0 * * * *" });
    await h.start(testSettings(home, t.sim.url, { VCW_SETTLE_MS: "60000", ...extra }));
    const dropped = Date.now();
    drop(inbox, "f.csv", contactsCsv(3, { from: 83_000 }));
    const made = await waitFor(
      async () => (await t.client.campaigns.list()).find((c) => c.campaigns_name?.startsWith(name)),
      30_000,
      "the campaign",
    );
    return Date.parse(String(made.started_at)) - dropped;
  }

  it("waits the settle time by default, none with idempotency keys", async () => {
    const settled = await startOfFirstCampaign({});
    expect(settled).toBeGreaterThanOrEqual(60_000);
    const keyed = await startOfFirstCampaign({ VCW_IDEMPOTENCY_KEYS: "on" });
    expect(keyed).toBeLessThan(30_000);
  }, 90_000);
});
