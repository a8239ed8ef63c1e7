import { describe, expect, it } from "vitest";
import type { Client } from "../../src/api/index.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, summaryOf, waitFor } from "../support/daemon.ts";
import { campaignCreateWith, heldUntilNext } from "../support/proxy.ts";
import { audiencePhones } from "../support/window-close.ts";
import { chaosCampaignJob, useProxiedChaos } from "./chaos-setup.ts";

interface Checks {
  copiesAdopted?: number;
  adoptedAfterCheck?: number;
  calledTwice?: number;
}

/** Both copies of the file's campaign started, and every phone they call. */
async function bothStarted(
  client: Client,
  campaignsNamed: (p: string) => Promise<{ id?: string | undefined; is_started?: boolean | undefined }[]>,
  prefix: string,
) {
  const copies = await waitFor(
    async () => {
      const listed = await campaignsNamed(prefix);
      return listed.length === 2 && listed.every((c) => c.is_started) ? listed : undefined;
    },
    150_000,
    "both copies started",
  );
  const called = (await Promise.all(copies.map((c) => audiencePhones(client, c.id!)))).flat();
  return { ids: copies.map((c) => c.id!).sort(), called };
}

/**
 * Issue 42, the copy landing after the check (decision 0065): the proxy holds the first campaign
 * create until vcw's re-sent one went through, then forwards it `afterMs` later, its start already
 * past, so the service starts it as it lands. The simulator runs in real time.
 */
describe("chaos: a campaign copy landing after its check", () => {
  const { t, running, proxy: startProxy } = useProxiedChaos();

  it("between the check and the start: the own copy is emptied, the late one adopted, each person called once", async () => {
    // A settle time of 20 s: the check runs 5 s before the re-sent copy's start, the look 2.5 s
    // before; the held copy lands 16.25 s after the re-send, between the two.
    const proxy = await startProxy(heldUntilNext(campaignCreateWith(""), 16_250).rule);
    const { inbox, tag, env, start, campaignsNamed } = await chaosCampaignJob(t, running, {
      env: { VCS_BASE_URL: proxy.url, VCW_SETTLE_MS: "20000" },
    });
    const daemon = start("start");
    const file = `between-${tag}.csv`;
    drop(inbox, file, contactsCsv(20, { from: 43_000 }));
    const { ids, called } = await bothStarted(t.client, campaignsNamed, `chaos-${tag}-${file}`);
    expect(called, daemon.logs()).toHaveLength(20);
    expect(new Set(called).size).toBe(20);

    const checks = await waitFor(
      () => {
        const s = summaryOf(inbox, file) as { checksBeforeStart?: Checks } | undefined;
        return s?.checksBeforeStart?.adoptedAfterCheck ? s.checksBeforeStart : undefined;
      },
      60_000,
      "the late copy in the summary",
    );
    expect(checks).toMatchObject({ copiesAdopted: 1, adoptedAfterCheck: 1, calledTwice: 0 });
    const listed = await runCli(["campaigns", "--job", "chaos", "--json"], env);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((c) => c.id).sort()).toEqual(ids);
    expect(daemon.logs()).toContain("its own copy emptied, the late one adopted");
  }, 200_000);

  it("after the start: found at a poll, adopted, polled, and its calls made twice counted and logged masked", async () => {
    // Settle 8 s: the re-sent copy starts 8 s after the re-send; the held one lands 15 s after it.
    const proxy = await startProxy(heldUntilNext(campaignCreateWith(""), 15_000).rule);
    const { inbox, tag, env, start, campaignsNamed } = await chaosCampaignJob(t, running, {
      env: { VCS_BASE_URL: proxy.url, VCW_SETTLE_MS: "8000" },
      // Polled every second from 1 s after the start (the default waits a minute): the test's time.
      extraJob: 'polling:\n  schedule: "* * * * * *"\n  startGraceSeconds: 1\n',
    });
    const daemon = start("start");
    const file = `after-${tag}.csv`;
    drop(inbox, file, contactsCsv(20, { from: 44_000 }));
    const { ids, called } = await bothStarted(t.client, campaignsNamed, `chaos-${tag}-${file}`);
    // Both started with the whole segment: nothing can be taken back (the spec has no cancel).
    expect(called).toHaveLength(40);
    expect(new Set(called).size).toBe(20);

    const checks = await waitFor(
      () => {
        const s = summaryOf(inbox, file) as { checksBeforeStart?: Checks } | undefined;
        return s?.checksBeforeStart?.adoptedAfterCheck ? s.checksBeforeStart : undefined;
      },
      60_000,
      "the late copy in the summary",
    );
    expect(checks).toMatchObject({ copiesAdopted: 1, adoptedAfterCheck: 1, calledTwice: 20 });
    const listed = await runCli(["campaigns", "--job", "chaos", "--json"], env);
    const rows = JSON.parse(listed.stdout) as { id: string; contacts: number }[];
    expect(rows.map((c) => c.id).sort()).toEqual(ids);
    // The adopted copy is polled: its 20 calls are vcw's to count.
    await waitFor(
      async () => {
        const again = JSON.parse((await runCli(["campaigns", "--job", "chaos", "--json"], env)).stdout);
        return (again as { contacts: number }[]).every((c) => c.contacts === 20) ? true : undefined;
      },
      60_000,
      "both copies polled",
    );
    const logs = daemon.logs();
    expect(logs).toContain("called its people again");
    for (let k = 44_000; k < 44_020; k++) expect(logs).not.toContain(phoneOf(k).slice(2));
  }, 200_000);
});
