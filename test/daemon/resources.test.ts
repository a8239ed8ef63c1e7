import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { runCli } from "../support/cli.ts";
import { contactsCsv, drop, quietLogger, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY } from "../support/fixtures.ts";
import { assistantYaml, dialerYaml, kbYaml, writeResources } from "../support/resources.ts";
import { useSimulator } from "../support/simulator.ts";

const TOKEN = "tok-SECRET-daemon-55aa";

describe("resources as code, end to end", () => {
  const t = useSimulator();
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
    daemon = undefined;
  });

  it("vcw apply, then a job naming { resource } calls with that version after its test call of the day; vcw call places one; no secret in any output", async () => {
    const home = tempDir("vcw-res-e2e-");
    const inbox = join(home, "inbox");
    const settings = testSettings(home, t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0" });
    mkdirSync(join(home, "jobs"), { recursive: true });
    writeFileSync(
      join(home, "jobs", "calls.yaml"),
      `name: calls\ninbox: ${inbox}\nsegment: { name: calls-e2e }\ncontacts: { country: US }\n` +
        "campaign: { assistant: { resource: e2e-bot }, dialer: { resource: e2e-line } }\n" +
        'preflight: { to: ["+14155550199"] }\n',
    );
    const resources = join(home, "resources");
    mkdirSync(resources);
    writeResources(resources, [
      kbYaml("e2e-faq"),
      assistantYaml("e2e-bot", "Goal.", "e2e-faq"),
      dialerYaml("e2e-line"),
    ]);
    const env = {
      REDIS_URL: inject("redisUrl"),
      VCS_BASE_URL: t.sim.url,
      VCS_API_KEY: API_KEY,
      VCW_PREFIX: settings.prefix.value,
      VCW_JOBS_DIR: join(home, "jobs"),
      VCW_HOME: join(home, ".vcw"),
      VCW_RESOURCES_DIR: resources,
      TEST_DIALER_TOKEN: TOKEN,
    };
    const applied = await runCli(["apply"], env);
    expect(applied.stderr).toBe("");
    expect(applied.stdout).toMatch(/\+ assistant e2e-bot: create e2e-bot@[0-9a-f]{12}/);
    const again = await runCli(["apply", "--dry-run", "--json"], env);
    const plan = JSON.parse(again.stdout) as { steps: { action: string }[]; applied: boolean };
    expect(plan.steps.map((s) => s.action)).toEqual(["unchanged", "unchanged", "unchanged"]);
    const version = /e2e-bot@[0-9a-f]{12}/.exec(applied.stdout)![0];

    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    const calls = t.sim.store.list("playgroundCalls").length;
    drop(inbox, "leads.csv", contactsCsv(3));
    const campaign = await waitFor(
      () => t.sim.store.list("campaigns").find((c) => String(c.fields.assistant_name).startsWith("e2e-bot@")),
      20_000,
      "the job's campaign",
    );
    expect(campaign.fields.assistant_name).toBe(version);
    expect(t.sim.store.list("playgroundCalls").length - calls).toBe(1);
    const overview = (await (await fetch(`${daemon.http!.url}/api/overview`)).json()) as {
      preflights: { job: string; ok: boolean; to: string[] }[];
    };
    expect(overview.preflights).toEqual([
      expect.objectContaining({ job: "calls", ok: true, to: ["+14•••••••99"] }),
    ]);

    const call = await runCli(["call", "e2e-bot", "--to", "+14155550123"], env);
    expect(call.stdout).toMatch(
      /^test call placed .*assistant e2e-bot .* via dialer e2e-line to \+14•••••••23/,
    );
    expect(t.sim.store.list("playgroundCalls").length - calls).toBe(2);
    for (const out of [applied, again, call]) expect(out.stdout + out.stderr).not.toContain(TOKEN);
    // A wrong folder is an error, never a plan to remove everything.
    const empty = await runCli(["apply", "--dry-run", "--dir", join(home, "jobs", "none")], env);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no resources \(\*\.yaml\) in .*none: nothing applied/);
  }, 150_000);
});
