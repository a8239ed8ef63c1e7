import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import type { VcwProcess } from "../support/cli.ts";
import { contactsCsv, drop, waitFor } from "../support/daemon.ts";
import { useSimulator } from "../support/simulator.ts";
import { chaosCampaignJob, killAll, untilStopped } from "./chaos-setup.ts";

/** The time of the first log line of `p` that contains every one of `texts`; undefined if none. */
function firstLogged(p: VcwProcess, ...texts: string[]): number | undefined {
  const line = p
    .logs()
    .split("\n")
    .find((l) => texts.every((text) => l.includes(text)));
  return line ? (JSON.parse(line) as { time: number }).time : undefined;
}

/**
 * A queue job whose BullMQ lock is lost sends nothing more, whatever its queue (lib/job-hold.ts).
 * The daemon about to create a file's campaign is stopped (SIGSTOP at the fault point) past its
 * job lock (1 s) but not past the create's own lock (about 32 s here), so only the job lock says
 * the job is no longer its own; a second daemon is there to take it. Resumed, it must not send.
 */
describe("chaos: a campaign job whose lock was lost while its process was stopped", () => {
  const t = useSimulator();
  const running: VcwProcess[] = [];
  afterAll(() => killAll(running));

  it("sends no create once resumed; the campaign is created once, after the loss", async () => {
    // The create's lock outlives the pause: the job lock alone must stop the resumed create.
    const { inbox, tag, start, campaignsNamed } = await chaosCampaignJob(t, running, {
      env: { VCW_LEASE_MARGIN_MS: "30000" },
    });
    const paused = start("start", { VCW_FAILPOINTS: "campaign.before-create=stop@1" });
    const file = `held-${tag}.csv`;
    drop(inbox, file, contactsCsv(5, { from: 73_000 }));
    await untilStopped(paused);
    const other = start("worker");
    await waitFor(() => (other.logs().includes("vcw worker") ? true : undefined), 30_000, "the worker").catch(
      () => undefined,
    );
    // Past the job lock (1 s) and a few stall checks (0.5 s) of the other daemon.
    await sleep(5_000);
    paused.child.kill("SIGCONT");

    const prefix = `chaos-${tag}-${file}`;
    const listed = () => campaignsNamed(prefix);
    await waitFor(async () => ((await listed()).length > 0 ? true : undefined), 60_000, "the campaign");
    await waitFor(
      () => firstLogged(paused, '"campaign ready"') ?? firstLogged(other, '"campaign ready"'),
      30_000,
      "a daemon's campaign ready",
    );
    // The resumed process created nothing while its job was another's: if it created the campaign
    // at all, it was after it said its lock was lost (a later run of the job, its own again).
    const lost = firstLogged(paused, "lost its lock");
    const createdByPaused = firstLogged(paused, '"campaign ready"', '"created":true');
    expect(createdByPaused === undefined || createdByPaused > (lost ?? Number.POSITIVE_INFINITY)).toBe(true);
    expect(lost, paused.logs()).toBeDefined();
    const readyFirst = Math.min(
      firstLogged(paused, '"campaign ready"') ?? Number.POSITIVE_INFINITY,
      firstLogged(other, '"campaign ready"') ?? Number.POSITIVE_INFINITY,
    );
    expect(readyFirst).toBeGreaterThan(lost!);
    // A late create would show within the settle time (2 s).
    await sleep(3_000);
    expect(await listed()).toHaveLength(1);
  }, 120_000);
});
