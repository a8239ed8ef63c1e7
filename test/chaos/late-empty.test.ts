import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, summaryOf, waitFor } from "../support/daemon.ts";
import { campaignCreateWith, heldUntilNext, type ProxyRule } from "../support/proxy.ts";
import { audiencePhones } from "../support/window-close.ts";
import { chaosCampaignJob, useProxiedChaos } from "./chaos-setup.ts";

interface Checks {
  copiesAdopted?: number;
  calledTwice?: number;
  campaigns?: { startedWhileEmptied?: number }[];
}

/** A summary's checks once they name a copy adopted (by the check or a look). */
const adoptedIn = (summary: unknown) => {
  const checks = (summary as { checksBeforeStart?: Checks } | undefined)?.checksBeforeStart;
  return checks?.copiesAdopted ? checks : undefined;
};

const isDelete = (req: { method?: string | undefined; url?: string | undefined }) =>
  req.method === "DELETE" && req.url?.includes("/segment/contact/delete") === true;

/**
 * Decision 0081: a late copy found right before the own copy's start, its segment emptied while
 * the own copy starts. Settle 20 s; `people` contacts, so the check and the look begin ahead by
 * their deletes at 20 a second: 60 people, check 8 s and look 5.5 s before the
 * start; the held first create lands 13.25 s after the re-send (6.75 s before the start), between
 * them. `deleteMs` holds each delete (8 at a time): slower than the look foresaw, the own copy
 * starts mid-delete. Either nobody is called twice, or the summary's `calledTwice` is what the
 * simulator's audiences show, the own copy is polled (its calls reported) and the error is logged
 * with the phones masked.
 */
describe("chaos: a late copy's own copy emptied as it starts", () => {
  const { t, running, proxy: startProxy } = useProxiedChaos();

  async function run(o: { people: number; from: number; deleteMs?: number }) {
    const held = heldUntilNext(campaignCreateWith(""), 13_250);
    const rule: ProxyRule = (req, body) =>
      o.deleteMs && isDelete(req) ? { holdMs: o.deleteMs } : held.rule(req, body);
    const proxy = await startProxy(rule);
    const { inbox, tag, env, start, campaignsNamed } = await chaosCampaignJob(t, running, {
      // A fixed rate of 20 a second (the adaptive gate's start, which it leaves as it learns): the
      // check's and the look's leads, and so which of them finds the late copy, are known.
      env: { VCS_BASE_URL: proxy.url, VCW_SETTLE_MS: "20000", VCW_RATE_LIMIT: "20" },
      extraJob: 'polling:\n  schedule: "* * * * * *"\n  startGraceSeconds: 1\n',
    });
    const daemon = start("start");
    const file = `emptied-${tag}.csv`;
    drop(inbox, file, contactsCsv(o.people, { from: o.from }));
    const copies = await waitFor(
      async () => {
        const listed = await campaignsNamed(`chaos-${tag}-${file}`);
        return listed.length === 2 && listed.every((c) => c.is_started) ? listed : undefined;
      },
      150_000,
      "both copies started",
    );
    const [a, b] = await Promise.all(copies.map((c) => audiencePhones(t.client, c.id!)));
    const twice = a!.filter((p) => b!.includes(p));
    const checks = await waitFor(
      () => adoptedIn(summaryOf(inbox, file)),
      60_000,
      "the copy adopted in the summary",
    );
    expect(new Set([...a!, ...b!]).size).toBe(o.people);
    expect(checks.calledTwice ?? 0, daemon.logs()).toBe(twice.length);
    const rows = async () =>
      JSON.parse((await runCli(["campaigns", "--job", "chaos", "--json"], env)).stdout) as {
        id: string;
        contacts: number;
      }[];
    const byAudience = new Map(copies.map((c, i) => [c.id!, [a, b][i]!.length]));
    // Every copy that calls anyone is polled: its calls reported as the service lists them.
    await waitFor(
      async () =>
        (await rows()).filter((r) => byAudience.get(r.id)).every((r) => r.contacts === byAudience.get(r.id))
          ? true
          : undefined,
      60_000,
      "each calling copy polled",
    );
    expect((await rows()).map((r) => r.id).sort()).toEqual(copies.map((c) => c.id!).sort());
    const logs = daemon.logs();
    for (let k = o.from; k < o.from + o.people; k++) expect(logs).not.toContain(phoneOf(k).slice(2));
    return { twice: twice.length, checks, logs };
  }

  it("deletes slower than foreseen: the own copy starts mid-delete, is polled, its calls made twice counted from the audiences", async () => {
    const { twice, checks, logs } = await run({ people: 60, from: 46_000, deleteMs: 800 });
    expect(twice).toBeGreaterThan(0);
    expect(checks.campaigns?.[0]?.startedWhileEmptied).toBeGreaterThanOrEqual(twice);
    expect(logs).toContain("this campaign started while its segment was emptied");
  }, 240_000);

  it("50 people at the shared rate: nobody called twice, or counted as the audiences show", async () => {
    const { twice } = await run({ people: 50, from: 47_000 });
    console.info(`late-empty chaos: ${twice} called twice`);
  }, 240_000);
});
