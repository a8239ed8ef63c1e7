import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { e164OfServicePhone } from "../../src/lib/phone-e164.ts";
import { spawnVcw, type VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, phoneOf, shortLeaseEnv, summaryOf, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

/** Whether a process is stopped (SIGSTOP): its state in /proc is `T`. */
const isStopped = (pid: number) => /^\d+ \(.*\) T /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));

/**
 * Issue 28, scenario 4, on real processes: two daemons; the one about to create a file's campaign
 * is paused (SIGSTOP at the fault point right before the create) past its lease, the other creates
 * the campaign, then the first is resumed (SIGCONT) and sends its late create: a second campaign of
 * the same name. The check before the start finds it: each person is called once, and the file's
 * summary says what was repaired.
 */
describe("chaos: two daemons, one paused right before a campaign's create", () => {
  const t = useSimulator();
  const running: VcwProcess[] = [];
  afterAll(() => {
    for (const p of running) {
      p.child.kill("SIGCONT");
      p.child.kill("SIGKILL");
    }
  });

  async function setup(extraJob = "") {
    const home = tempDir("vcw-chaos-");
    const inbox = join(home, "inbox");
    const assistant = (await t.client.assistants.create(validAssistant())).id!;
    const dialer = (await t.client.dialers.create(validDialer())).id!;
    const tag = randomBytes(3).toString("hex");
    mkdirSync(join(home, "jobs"));
    writeFileSync(
      join(home, "jobs", "chaos.yaml"),
      `name: chaos\ninbox: ${inbox}\nsegment:\n  name: chaos-${tag}\ncontacts:\n  country: US\n` +
        `campaign:\n  assistant: { id: ${assistant} }\n  dialer: { id: ${dialer} }\n  name: "chaos-${tag}-{file}"\n${extraJob}`,
    );
    const env: NodeJS.ProcessEnv = {
      ...shortLeaseEnv(home, t.sim.url, `vcw-test-${randomBytes(4).toString("hex")}`),
      VCW_SETTLE_MS: "12000",
      VCW_RATE_LIMIT: "200",
    };
    const start = (role: "start" | "worker", more: NodeJS.ProcessEnv = {}) => {
      const p = spawnVcw([role], { ...env, ...more });
      running.push(p);
      return p;
    };
    const campaignsNamed = async (prefix: string) =>
      (await t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(prefix));
    return { inbox, tag, start, campaignsNamed };
  }

  /** Every phone's audience entries over `campaigns` (each campaign's audience, as the service lists it). */
  async function entriesByPhone(ids: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const id of ids)
      for (const e of await t.client.campaigns.audiences(id)) {
        const phone = e164OfServicePhone(String(e.phone), "US") ?? String(e.phone);
        counts.set(phone, (counts.get(phone) ?? 0) + 1);
      }
    return counts;
  }

  /**
   * With `paused` stopped right before the create of the campaigns named `prefix`: another daemon
   * takes the job over once the lease lapsed and creates the campaign; `paused` is resumed and
   * sends its late create. Both copies start (emptied); the fresh one the repair made starts after
   * its settle time. Every campaign of `prefix` then, and the other daemon.
   */
  async function lateCopyRepaired(s: Awaited<ReturnType<typeof setup>>, paused: VcwProcess, prefix: string) {
    const count = async (started = false) =>
      (await s.campaignsNamed(prefix)).filter((c) => !started || c.is_started).length;
    const other = s.start("worker");
    await waitFor(async () => ((await count()) === 1 ? true : undefined), 60_000, "one campaign");
    paused.child.kill("SIGCONT");
    await waitFor(async () => ((await count()) >= 2 ? true : undefined), 30_000, "the late copy");
    await waitFor(async () => ((await count(true)) >= 2 ? true : undefined), 60_000, "both copies started");
    const settled = async () => {
      const listed = await s.campaignsNamed(prefix);
      return listed.length >= 3 && listed.every((c) => c.is_started) ? listed : undefined;
    };
    const all = await waitFor(settled, 40_000, "the fresh campaign started").catch(() =>
      s.campaignsNamed(prefix),
    );
    return { all, other };
  }

  it("the late create makes a second campaign; the check before the start empties both and calls each person once", async () => {
    const s = await setup();
    const paused = s.start("start", { VCW_FAILPOINT: "before-campaign-create:stop" });
    const file = `people-${s.tag}.csv`;
    drop(s.inbox, file, contactsCsv(20, { from: 71_000 }));
    await waitFor(
      () => (isStopped(paused.child.pid!) ? true : undefined),
      60_000,
      "the pause before the create",
    );
    const prefix = `chaos-${s.tag}-${file}`;
    expect(await s.campaignsNamed(prefix)).toHaveLength(0);

    const { all, other } = await lateCopyRepaired(s, paused, prefix);
    // Nobody has two audience entries over the file's campaigns, and nobody was left out.
    const entries = await entriesByPhone(all.map((c) => c.id!));
    for (let i = 0; i < 20; i++) expect(entries.get(phoneOf(71_000 + i)), phoneOf(71_000 + i)).toBe(1);
    expect(entries.size).toBe(20);
    expect(all).toHaveLength(3);
    expect(all.filter((c) => / repaired 1$/.test(c.campaigns_name ?? ""))).toHaveLength(1);

    const summary = await waitFor(
      () => {
        const sm = summaryOf(s.inbox, file);
        return sm?.checksBeforeStart?.campaignsRepaired ? sm : undefined;
      },
      30_000,
      "the summary's checks",
    );
    expect(summary.checksBeforeStart).toMatchObject({
      campaignsRepaired: 1,
      duplicatesRemoved: 0,
      withdrawn: 0,
    });
    const logs = paused.logs() + other.logs();
    expect(logs).toMatch(/repaired before its start/);
    expect(logs).not.toContain(phoneOf(71_000));
  }, 120_000);

  it("a follow-up: the daemon paused right before the follow-up's create, resumed late; each of its people is called once more", async () => {
    const s = await setup(
      'polling:\n  schedule: "* * * * * *"\nfollowUps:\n  attempts: 1\n  spacingMinutes: 0\n',
    );
    const paused = s.start("start", { VCW_FAILPOINT: "before-follow-up-create:stop" });
    const file = `again-${s.tag}.csv`;
    drop(s.inbox, file, contactsCsv(20, { from: 72_000 }));
    const prefix = `chaos-${s.tag}-${file}`;
    const first = await waitFor(
      async () => (await s.campaignsNamed(prefix)).find((c) => c.is_started),
      60_000,
      "the first campaign started",
    );
    // Its calls end at once in the service's time; the follow-up's create is reached and paused.
    // The service's clock is then set back, so the follow-ups' starts are ahead of it as in real time.
    const hour = 3_600_000;
    t.sim.clock.advance(hour);
    await waitFor(
      () => (isStopped(paused.child.pid!) ? true : undefined),
      60_000,
      "the pause before the follow-up's create",
    );
    t.sim.clock.advance(-hour);

    const { all: followUps, other } = await lateCopyRepaired(
      s,
      paused,
      `${first.campaigns_name} follow-up 1`,
    );
    expect(followUps).toHaveLength(3);
    expect(followUps.filter((c) => / repaired 1$/.test(c.campaigns_name ?? ""))).toHaveLength(1);
    const entries = await entriesByPhone(followUps.map((c) => c.id!));
    expect(entries.size).toBeGreaterThan(0);
    for (const [phone, n] of entries) expect(n, phone).toBe(1);
    expect(paused.logs() + other.logs()).toMatch(/repaired before its start/);
  }, 120_000);
});
