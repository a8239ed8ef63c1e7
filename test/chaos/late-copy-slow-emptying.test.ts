import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, summaryOf, waitFor } from "../support/daemon.ts";
import { campaignCreateWith, heldUntilNext } from "../support/proxy.ts";
import { audiencePhones } from "../support/window-close.ts";
import { chaosCampaignJob, useProxiedChaos } from "./chaos-setup.ts";

/** Contacts in the file: at the fixed rate below, emptying them takes 10 s against a 2 s lead. */
const PEOPLE = 50;

/**
 * Decision 0080: a late copy found started by the check, whose own copy's segment takes longer to
 * empty (fenced deletes at the gate's pace) than the check's lead before the own copy's start. The
 * own copy starts with the contacts not yet deleted and calls them: each of them is called by
 * both copies. vcw must not end that copy blind: it polls it, and counts every person its audience
 * shows called as called twice (summary, `vcw campaigns`, an error log with phones masked).
 * The simulator runs in real time; its clock is moved on once both copies started, so every call
 * ends within the test.
 */
describe("chaos: emptying the own copy outlasts its start", () => {
  const { t, running, proxy: startProxy } = useProxiedChaos();

  it("the calls the own copy made before its segment was empty are counted as calledTwice, exactly", async () => {
    // The first create is held until the re-sent one went through, then forwarded (1 s later):
    // it lands before the re-sent copy's check, its start past, and starts at once.
    const proxy = await startProxy(heldUntilNext(campaignCreateWith("")).rule);
    const { inbox, tag, env, start, campaignsNamed } = await chaosCampaignJob(t, running, {
      env: {
        VCS_BASE_URL: proxy.url,
        // Settle 8 s: the check runs 2 s before the re-sent copy's start, the look 1 s before.
        VCW_SETTLE_MS: "8000",
        // A fixed 5 requests a second: the check's 50 deletes take 10 s, outlasting its 2 s lead.
        VCW_RATE_LIMIT: "5",
      },
      // Polled every second from 1 s after the start (the default waits a minute): the test's time.
      extraJob: 'polling:\n  schedule: "* * * * * *"\n  startGraceSeconds: 1\n',
    });
    const daemon = start("start");
    const file = `slow-empty-${tag}.csv`;
    drop(inbox, file, contactsCsv(PEOPLE, { from: 45_000 }));
    const copies = await waitFor(
      async () => {
        const listed = await campaignsNamed(`chaos-${tag}-${file}`);
        return listed.length === 2 && listed.every((c) => c.is_started) ? listed : undefined;
      },
      150_000,
      "both copies started",
    );
    // Every call of both audiences ends (the longest: 60 s of dials, 30 s ringing, 300 s talking).
    t.sim.clock.advance(3_600_000);

    // The real calls: the late copy called the whole segment; the own copy whoever was left at its start.
    const audiences = await Promise.all(copies.map((c) => audiencePhones(t.client, c.id!)));
    const called = audiences.flat();
    const twice = called.length - new Set(called).size;
    expect(new Set(called).size).toBe(PEOPLE);
    // The deletes did outlast the start (else this test tells nothing).
    expect(twice, daemon.logs()).toBeGreaterThan(0);

    const checks = await waitFor(
      () => {
        const s = summaryOf(inbox, file) as { checksBeforeStart?: { calledTwice?: number } } | undefined;
        return s?.checksBeforeStart?.calledTwice ? s.checksBeforeStart : undefined;
      },
      60_000,
      `the ${twice} calls made twice in the summary`,
    );
    expect(checks).toMatchObject({ copiesAdopted: 1, calledTwice: twice });
    // Both copies polled to their end; `vcw campaigns` counts the calls made twice.
    const rows = await waitFor(
      async () => {
        const listed = await runCli(["campaigns", "--job", "chaos", "--json"], env);
        const all = JSON.parse(listed.stdout) as { id: string; state: string; calledTwice?: number }[];
        return all.length === 2 && all.every((c) => c.state === "finished") ? all : undefined;
      },
      60_000,
      "both copies finished",
    );
    expect(rows.map((c) => c.id).sort()).toEqual(copies.map((c) => c.id!).sort());
    expect(rows.reduce((n, c) => n + (c.calledTwice ?? 0), 0)).toBe(twice);
    const logs = daemon.logs();
    expect(logs).toContain("an emptied copy of this campaign started before its deletes all landed");
    for (let k = 45_000; k < 45_000 + PEOPLE; k++) expect(logs).not.toContain(phoneOf(k).slice(2));
  }, 240_000);
});
