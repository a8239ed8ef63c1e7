import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, summaryOf, waitFor } from "../support/daemon.ts";
import { campaignCreateWith, heldUntilNext } from "../support/proxy.ts";
import { audiencePhones } from "../support/window-close.ts";
import { chaosCampaignJob, useProxiedChaos } from "./chaos-setup.ts";

/**
 * Issue 42: a request queue in front of the service holds a file's first campaign create past the
 * settle time; vcw, finding nothing by name by then, sends it again; the held create lands next,
 * with its start already past, so the service starts it at once. Its copy's check, finding the
 * other started, must leave each person called once and take the started copy on as its own.
 * The simulator runs in real time (timeScale 1), so the order does not hang on its clock.
 */
describe("chaos: a campaign create held past the settle time, then applied", () => {
  const { t, running, proxy: startProxy } = useProxiedChaos();

  it("each person is called once; the started copy is adopted and counted", async () => {
    // The first create is held until the re-sent one has gone through, then forwarded (1 s later).
    const proxy = await startProxy(heldUntilNext(campaignCreateWith("")).rule);
    // A settle time of 8 s: the re-sent copy starts 8 s after its send, checked 2 s before.
    const { inbox, tag, env, start, campaignsNamed } = await chaosCampaignJob(t, running, {
      env: { VCS_BASE_URL: proxy.url, VCW_SETTLE_MS: "8000" },
    });
    const daemon = start("start");
    const file = `late-${tag}.csv`;
    drop(inbox, file, contactsCsv(20, { from: 42_000 }));
    const prefix = `chaos-${tag}-${file}`;
    const copies = await waitFor(
      async () => {
        const listed = await campaignsNamed(prefix);
        return listed.length === 2 && listed.every((c) => c.is_started) ? listed : undefined;
      },
      120_000,
      "both copies started",
    );
    const audiences = await Promise.all(copies.map((c) => audiencePhones(t.client, c.id!)));
    const called = audiences.flat();
    expect(called, daemon.logs()).toHaveLength(20);
    expect(new Set(called).size).toBe(20);

    // vcw counts the started copy: its check says so, and `vcw campaigns` lists both copies.
    const summary = await waitFor(
      () => {
        const s = summaryOf(inbox, file) as { checksBeforeStart?: { copiesAdopted?: number } } | undefined;
        return s?.checksBeforeStart ? s : undefined;
      },
      60_000,
      "the check in the summary",
    );
    expect(summary.checksBeforeStart?.copiesAdopted).toBe(1);
    const listed = await runCli(["campaigns", "--job", "chaos", "--json"], env);
    const ids = (JSON.parse(listed.stdout) as { id: string }[]).map((c) => c.id);
    expect(ids.sort()).toEqual(copies.map((c) => c.id!).sort());
    expect(daemon.logs()).toContain("the started one adopted");
  }, 180_000);
});
