import { describe, expect, it } from "vitest";
import type { Daemon } from "../../src/daemon/daemon.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { API_KEY } from "../support/fixtures.ts";
import type { TestServer } from "../support/http-server.ts";
import { startProxy } from "../support/proxy.ts";

describe("vcw cancel tells the truth; an ambiguous campaign create is never forgotten", () => {
  const h = useCallingDaemon({ timeScale: 600 });
  const { t } = h;
  let daemon: Daemon | undefined;
  let proxy: TestServer | undefined;
  h.afterDaemons(async () => {
    await proxy?.close();
    daemon = undefined;
  });

  async function start(serviceUrl: string) {
    const { home, inbox, name } = h.callingJob();
    const settings = testSettings(home, serviceUrl);
    daemon = await h.start(settings);
    const env = {
      REDIS_URL: settings.redisUrl.value!,
      VCW_PREFIX: settings.prefix.value,
      VCS_API_KEY: API_KEY,
    };
    return { inbox, name, env, cli: (...args: string[]) => runCli(args, env) };
  }

  const campaignsNamed = async (job: string) =>
    (await t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(job));

  it("a create applied but unanswered, the lookup failing: cancel says it may exist (exit 1); the campaign is tracked once the service lists it", async () => {
    // The listing goes down as the create leaves: the create lists its name first (decision 0064).
    let down = false;
    proxy = await startProxy(t.sim.url, (req) => {
      if (req.url!.endsWith("/campaign/create")) {
        down = true;
        return { pass: true, thenAnswer: 500 };
      }
      return req.url!.endsWith("/campaign/list") && down ? { answer: 503 } : undefined;
    });
    const s = await start(proxy.url);
    drop(s.inbox, "monday.csv", contactsCsv(3, { from: 71_000 }));
    // The create went through, its answer was lost, and the lookup failed.
    await waitFor(
      () => (proxy!.requests.filter((r) => r.url.endsWith("/campaign/list")).length > 1 ? true : undefined),
      30_000,
      "a lookup after the lost create",
    );
    const cancel = await s.cli("cancel", "monday.csv");
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toMatch(
      /may exist: .* its create was sent and the answer lost; the service can't stop it/,
    );
    expect(cancel.stderr).toContain("the service has no operation to pause or stop a campaign");
    expect(await campaignsNamed(s.name)).toHaveLength(1);

    down = false;
    const [made] = await campaignsNamed(s.name);
    const tracked = await waitFor(() => daemon!.stores.store.get(made!.id!), 30_000, "the campaign tracked");
    expect(tracked.info.file).toBe("monday.csv");
    // Polled like any other: its audience is read.
    await waitFor(
      async () => ((await daemon!.stores.store.get(made!.id!))!.version > 0 ? true : undefined),
      30_000,
      "polled",
    );
    expect(await campaignsNamed(s.name)).toHaveLength(1);

    const again = await s.cli("cancel", "monday.csv");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      `is campaign ${made!.id}: it was created before the cancel; the service can't stop it`,
    );
  }, 90_000);

  it("a campaign not yet created: canceled (exit 0), and never created", async () => {
    // Its assistant can't be looked up for now: the campaign waits to be created.
    let down = true;
    proxy = await startProxy(t.sim.url, (req) =>
      req.url!.endsWith("/user/listAssistant") && down ? { answer: 503 } : undefined,
    );
    const s = await start(proxy.url);
    drop(s.inbox, "tuesday.csv", contactsCsv(2, { from: 72_000 }));
    await waitFor(() => summaryOf(s.inbox, "tuesday.csv"), 30_000, "tuesday imported");
    await waitFor(
      async () => ((await daemon!.queues.campaigns.getDelayedCount()) > 0 ? true : undefined),
      20_000,
      "the campaign waiting",
    );
    const cancel = await s.cli("cancel", "tuesday.csv");
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toMatch(
      /^canceled before it was created: .*: no campaign was or will be created$/m,
    );
    down = false;
    // Nothing left that could create it: the cancel took the waiting job out of the queue (and a job
    // that ran anyway finds the cancel and ends canceled before it was created).
    await waitFor(
      async () => {
        const counts = await daemon!.queues.campaigns.getJobCounts(
          "waiting",
          "active",
          "delayed",
          "prioritized",
        );
        return Object.values(counts).every((n) => n === 0) ? true : undefined;
      },
      40_000,
      "no campaign job left",
    );
    expect(await campaignsNamed(s.name)).toHaveLength(0);
    expect(proxy.requests.filter((r) => r.url.endsWith("/campaign/create"))).toHaveLength(0);
    expect((await s.cli("cancel", "nothing.csv")).code).toBe(1);
  }, 60_000);
});
