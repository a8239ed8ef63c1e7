import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, summaryOf, waitFor } from "../support/daemon.ts";
import { campaignCreateWith, heldUntilNext, type ProxyRule } from "../support/proxy.ts";
import { audiencePhones } from "../support/window-close.ts";
import { chaosCampaignJob, useProxiedChaos } from "./chaos-setup.ts";

type Checks = { copiesAdopted?: number; campaignsRepaired?: number; calledTwice?: number };

const isFollowUpCreate = campaignCreateWith(" follow-up 1");

/**
 * Issue 42 item 4: the held create of late-copy.test.ts, for a follow-up. Every call of the first
 * campaign ends busy (a "try again" status) within seconds, so its 20 people are all followed up.
 * A request queue holds the follow-up's first create until vcw's re-sent one has gone through, or
 * passes it on and loses its answer (a plain timeout). Each person is called once by the first
 * campaign and once by a follow-up, and vcw counts every follow-up copy that calls.
 * The simulator runs in real time: a copy landing after its start is started as it lands.
 */
describe("chaos: a follow-up's campaign create held or timed out", () => {
  const {
    t,
    running,
    proxy: startProxy,
  } = useProxiedChaos({
    callModel: {
      pacingMs: 100,
      outcomes: { completed: 0, "no-answer": 0, busy: 1, voicemail: 0, failed: 0, "opted-out": 0 },
    },
  });

  /** A job whose 20 people are called, then followed up once; its follow-up's creates go through `rule`. */
  async function followedUp(rule: ProxyRule, audience: "file" | "segment", from: number) {
    const proxy = await startProxy(rule);
    // A settle time of 8 s: the re-sent copy starts 8 s after its send, checked 2 s before.
    const job = await chaosCampaignJob(t, running, {
      env: { VCS_BASE_URL: proxy.url, VCW_SETTLE_MS: "8000" },
      extraJob: `  audience: ${audience}\npolling:\n  schedule: "* * * * * *"\nfollowUps:\n  attempts: 1\n  spacingMinutes: 0\n`,
    });
    const daemon = job.start("start");
    const file = `again-${job.tag}.csv`;
    drop(job.inbox, file, contactsCsv(20, { from }));
    return { ...job, daemon, file, prefix: `chaos-${job.tag}-${file}` };
  }

  /** The calls of the campaigns named `prefix`: per phone, and the campaigns. */
  async function callsOf(campaigns: readonly { id?: string | undefined }[]) {
    const phones = (await Promise.all(campaigns.map((c) => audiencePhones(t.client, c.id!)))).flat();
    return { total: phones.length, distinct: new Set(phones).size };
  }

  /** The first campaign and `n` follow-up copies, every one started. */
  const started = (s: Awaited<ReturnType<typeof followedUp>>, n: number) =>
    waitFor(
      async () => {
        const listed = await s.campaignsNamed(s.prefix);
        const ups = listed.filter((c) => c.campaigns_name?.includes(" follow-up 1"));
        const first = listed.filter((c) => !ups.includes(c));
        return ups.length === n && listed.every((c) => c.is_started) ? { first, ups } : undefined;
      },
      150_000,
      `the first campaign and ${n} follow-up copies started`,
    );

  const summaryChecks = (s: Awaited<ReturnType<typeof followedUp>>, campaigns: number) =>
    waitFor(
      () => {
        const sm = summaryOf(s.inbox, s.file) as
          | { checksBeforeStart?: Checks & { campaigns: unknown[] } }
          | undefined;
        return (sm?.checksBeforeStart?.campaigns.length ?? 0) >= campaigns
          ? sm!.checksBeforeStart
          : undefined;
      },
      60_000,
      "the checks in the summary",
    );

  for (const audience of ["file", "segment"] as const)
    it(`held past the settle time (audience: ${audience}): each person is called once by a follow-up; the started copy adopted`, async () => {
      const s = await followedUp(
        heldUntilNext(isFollowUpCreate).rule,
        audience,
        audience === "file" ? 43_000 : 43_100,
      );
      const { first, ups } = await started(s, 2);
      const firstCalls = await callsOf(first);
      const upCalls = await callsOf(ups);
      console.log(
        `held follow-up (${audience}): first ${JSON.stringify(firstCalls)}, follow-ups ${ups.length} ${JSON.stringify(upCalls)}`,
      );
      expect(firstCalls, s.daemon.logs()).toEqual({ total: 20, distinct: 20 });
      expect(upCalls, s.daemon.logs()).toEqual({ total: 20, distinct: 20 });

      // vcw counts the started copy: the follow-up's check says so, and `vcw campaigns` lists it.
      const checks = await summaryChecks(s, 2);
      expect(checks).toMatchObject({ copiesAdopted: 1, calledTwice: 0 });
      const listed = await runCli(["campaigns", "--job", "chaos", "--json"], s.env);
      const ids = (JSON.parse(listed.stdout) as { id: string }[]).map((c) => c.id);
      expect(ids.sort()).toEqual([...first, ...ups].map((c) => c.id!).sort());
      expect(s.daemon.logs()).toContain("the started one adopted");
    }, 240_000);

  it("timed out (its answer lost, the create applied): one follow-up, each person called once by it", async () => {
    let creates = 0;
    const s = await followedUp(
      (req, body) =>
        isFollowUpCreate(req, body) && ++creates === 1 ? { pass: true, thenAnswer: 504 } : undefined,
      "file",
      43_200,
    );
    const { ups } = await started(s, 1);
    const upCalls = await callsOf(ups);
    console.log(
      `timed-out follow-up: follow-ups ${ups.length} ${JSON.stringify(upCalls)}, creates ${creates}`,
    );
    expect(upCalls, s.daemon.logs()).toEqual({ total: 20, distinct: 20 });
    expect(creates).toBe(1);
    const checks = await summaryChecks(s, 2);
    expect(checks).toMatchObject({ copiesAdopted: 0, campaignsRepaired: 0, calledTwice: 0 });
  }, 180_000);
});
