import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { type Daemon, startDaemon } from "../../src/daemon/daemon.ts";
import { redisKeys } from "../../src/lib/redis-keys.ts";
import type { Plan } from "../../src/pipeline/calling/plan-campaigns.ts";
import type { PreviewReport } from "../../src/pipeline/calling/preview.ts";
import { createCampaignStore } from "../../src/pipeline/stores/campaign-store.ts";
import { runCli } from "../support/cli.ts";
import { quietLogger, summaryOf, testSettings, waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";
import { validAssistant, validDialer } from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

const MIXED = join(import.meta.dirname, "../fixtures/calling/mixed.csv");

/**
 * The done-when: on a mixed file (Florida, Oklahoma, California, New York, the UK, a US
 * toll-free number, a number with no region, a state column, a zone column, an invalid row), the
 * preview and the real daemon on the simulator agree campaign by campaign.
 */
describe("vcw preview and the daemon agree on a mixed file", () => {
  const t = useSimulator({ timeScale: 1 });
  const redis = new Redis(inject("redisUrl"));
  let daemon: Daemon | undefined;
  afterEach(async () => {
    await daemon?.close();
  });
  afterAll(async () => {
    redis.disconnect();
  });
  let assistant: string;
  let dialer: string;
  beforeAll(async () => {
    assistant = (await t.client.assistants.create(validAssistant())).id!;
    dialer = (await t.client.dialers.create(validDialer())).id!;
  });

  it("the daemon makes exactly the campaigns the preview shows: zones, regions, phones, starts, ends", async () => {
    const home = tempDir("vcw-plan-");
    const tag = randomBytes(3).toString("hex");
    mkdirSync(join(home, "jobs"));
    const inbox = join(home, "inbox");
    writeFileSync(
      join(home, "jobs", "mixed.yaml"),
      [
        "name: mixed",
        `inbox: ${inbox}`,
        `segment: { name: mixed-${tag} }`,
        "contacts: { country: US }",
        "campaign:",
        `  assistant: { id: ${assistant} }`,
        `  dialer: { id: ${dialer} }`,
        `  name: "mixed-${tag} {file}"`,
        "  start:",
        "    window: { days: [sun, mon, tue, wed, thu, fri, sat], from: '07:00', to: '22:00', timezone: callee, fallbackTimezone: America/Chicago }",
        "calling:",
        "  rules: [us, gb]",
        'polling: { schedule: "*/5 * * * * *" }',
      ].join("\n"),
    );
    const settings = testSettings(home, t.sim.url);
    const env = {
      REDIS_URL: inject("redisUrl"),
      VCW_PREFIX: settings.prefix.value,
      VCW_JOBS_DIR: join(home, "jobs"),
      VCW_HOME: join(home, ".vcw"),
      // The daemon's hold after a create (testSettings: none), so the preview plans the same starts.
      VCW_SETTLE_MS: String(settings.settleMs.value),
      VCW_START_LEAD_MS: String(settings.startLeadMs.value),
    };
    const previewAt = async (at: string[], prefix: string) => {
      const previewed = await runCli(["preview", MIXED, "--job", "mixed", "--json", ...at], {
        ...env,
        VCW_PREFIX: prefix,
      });
      expect(previewed.stderr).toBe("");
      return JSON.parse(previewed.stdout) as PreviewReport;
    };
    const first = await previewAt([], settings.prefix.value);
    const planned = Date.parse(first.at);
    expect(first.campaigns.length).toBeGreaterThanOrEqual(7);

    daemon = await startDaemon({ settings, logger: quietLogger(), watch: true, work: true });
    await daemon.ready;
    mkdirSync(inbox, { recursive: true });
    copyFileSync(MIXED, join(inbox, "mixed.csv"));
    const summary = await waitFor(() => summaryOf(inbox, "mixed.csv"), 60_000);
    const labels = (names: string[]) => names.map((n) => /\[(.*)\]$/.exec(n)?.[1]).sort();
    const mine = async () =>
      (await t.client.campaigns.list()).filter((c) => c.campaigns_name?.startsWith(`mixed-${tag} `));
    await waitFor(
      async () => ((await mine()).length >= first.campaigns.length ? true : undefined),
      60_000,
    ).catch(() => undefined);
    const made = await mine();
    // The daemon planned seconds after the first preview, and an opening, close or pace step between
    // changes the plan: preview again at the instant of its stored plan (its starts "now"; with none,
    // its plan holds until its first opening), on an empty key space as the first's.
    const [planKey] = await redis.keys(redisKeys(settings.prefix.value).callingPlan("*"));
    const stored = JSON.parse((await redis.get(planKey!))!) as Plan;
    const earliest = Math.min(...stored.campaigns.map((c) => c.scheduledAt));
    const now = Date.now();
    const at = earliest >= planned && earliest <= now ? earliest : now;
    const preview = await previewAt(["--at", new Date(at).toISOString()], `${settings.prefix.value}-again`);
    expect(labels(made.map((c) => c.campaigns_name!))).toEqual(
      labels(preview.campaigns.map((c) => `[${c.label}]`)),
    );
    const store = createCampaignStore(redis, redisKeys(settings.prefix.value));
    for (const p of preview.campaigns) {
      const campaign = made.find((c) => c.campaigns_name!.endsWith(`[${p.label}]`));
      expect(campaign, `a campaign for ${p.label}`).toBeDefined();
      const info = (await store.get(campaign!.id!))!.info;
      const segment = (await t.client.segments.list()).find((g) => g.name === campaign!.campaigns_name)!;
      const phones = (await t.client.contacts.list(segment.id!)).map((c) => c.phone).sort();
      expect(phones, p.label).toEqual([...p.phones].sort());
      expect(info.region, p.label).toBe(p.region);
      // Planned at that instant, created a moment after: a start "now" moved by that moment, no more.
      const shift = Date.parse(info.scheduledAt) - Date.parse(p.scheduledAt);
      const startedNow = Date.parse(p.scheduledAt) === at;
      if (startedNow) expect(shift, p.label).toBeLessThan(120_000);
      else expect(shift, p.label).toBe(0);
      expect(shift).toBeGreaterThanOrEqual(0);
      expect(info.callUntil, p.label).toBe(Date.parse(p.callUntil));
      expect(info.expectedEndAt! - Date.parse(p.expectedEndAt), p.label).toBe(shift);
    }
    // Every skip is in the summary with its reason, as the preview counted it (invalid rows by code).
    const skipped = { ...summary.totals.codes, ...(summary.audience as { skipped?: object }).skipped };
    expect(skipped).toMatchObject(preview.skipped);
  }, 150_000);
});
