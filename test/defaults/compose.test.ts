import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readCompose, type Stack, startStack } from "../support/compose.ts";
import { tempDir } from "../support/files.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * A number whose zone is inside the example job's window (08:00-21:00) now, with an hour to spare.
 * vcw polls a campaign from its scheduled start by its own clock, not the simulator's 60x one, so
 * the sample (California, London) alone gets no poll between 05:00 and 08:00 UTC, when both wait.
 */
function numberOpenNow(now = new Date()): string {
  const candidates = [
    ["+14155550190", "America/Los_Angeles"],
    ["+12125550190", "America/New_York"],
    ["+442079460190", "Europe/London"],
    ["+919876543210", "Asia/Kolkata"],
    ["+81312345678", "Asia/Tokyo"],
    ["+61293744000", "Australia/Sydney"],
  ] as const;
  const hourIn = (zone: string) =>
    Number(
      new Intl.DateTimeFormat("en-US", { timeZone: zone, hour: "numeric", hourCycle: "h23" }).format(now),
    );
  const open = candidates.find(([, zone]) => hourIn(zone) >= 8 && hourIn(zone) < 20);
  if (!open) throw new Error("no candidate zone is open now: add one");
  return open[0];
}
const compose = readCompose(ROOT);

/** docker-compose.yml run as the file runs it (test/support/compose.ts), outside Docker. */
describe("docker compose, run as the file runs it", () => {
  let stack: Stack | undefined;
  afterAll(async () => stack?.stop(), 60_000);

  it("publishes no Redis on the host: the host's own 6379 is left alone", () => {
    for (const [name, s] of Object.entries(compose.services))
      for (const p of s.ports ?? []) expect(`${name}: ${p}`).not.toMatch(/(^|:)6379:\d+$/);
    expect(compose.services.redis!.ports).toBeUndefined();
  });

  it("runs the example end to end: the sample imported, its campaigns on the simulator's demo assistant, results written", async () => {
    const host = { VCW_HTTP_TOKEN: "compose-test-token-0123456789abcdef" };
    // Nothing changed but what the file asks of the host (the token): its simulator honours
    // idempotency keys and its vcw sends them, so campaigns start in seconds (95 s without).
    const s = await startStack({ root: ROOT, work: tempDir("vcw-compose-"), compose, host });
    stack = s;
    const until = async <T>(
      what: string,
      ms: number,
      check: () => T | undefined | Promise<T | undefined>,
    ) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const value = await check();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${s.log()}`);
        await sleep(500);
      }
    };

    // The quick start, through the stack: the sample dropped into the inbox the host shares.
    const inbox = join(s.project, "inbox", "example-leads");
    mkdirSync(inbox, { recursive: true });
    copyFileSync(join(ROOT, "jobs", "samples", "example-leads.csv"), join(inbox, ".example-leads.csv.part"));
    renameSync(join(inbox, ".example-leads.csv.part"), join(inbox, "example-leads.csv"));
    const summary = await until("the sample in done/", 60_000, () => {
      const done = join(inbox, "done");
      const name = existsSync(done)
        ? readdirSync(done).find((f) => f.endsWith("example-leads.csv.summary.json"))
        : undefined;
      return name ? JSON.parse(readFileSync(join(done, name), "utf8")) : undefined;
    });
    expect(summary).toMatchObject({ status: "imported", created: 6 });

    // A person whose window is open now: their campaign starts at once, whatever the hour.
    writeFileSync(join(inbox, ".open-now.csv.part"), `First Name,Phone Number\nOpal,${numberOpenNow()}\n`);
    renameSync(join(inbox, ".open-now.csv.part"), join(inbox, "open-now.csv"));
    const droppedOpenNow = Date.now();

    const simulator = `http://127.0.0.1:${s.port("simulator")}/api/v1`;
    const campaigns = await until("the sample's campaigns on the simulator", 90_000, async () => {
      const r = await fetch(`${simulator}/campaign/list`, { headers: { "x-api-key": "dev-key" } });
      const list = (await r.json()) as { assistant_name?: string; dialer_name?: string }[];
      return list.length >= 3 ? list : undefined;
    });
    for (const c of campaigns)
      expect([c.assistant_name, c.dialer_name]).toEqual(["Demo assistant", "Demo line"]);
    // The open-now person's campaign ends within minutes; the sample's may wait for their morning.
    const results = await until("a campaign's results in the shared reports volume", 420_000, () => {
      const dir = s.volume("reports");
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".results.csv")) : [];
      return files.length > 0 ? files : undefined;
    });
    expect(results.length).toBeGreaterThan(0);
    // Called in seconds, checked first (issue 40: 60 s of settle time, then started before its check).
    expect(Date.now() - droppedOpenNow).toBeLessThan(60_000);
    expect(s.log()).not.toMatch(/"level":50|campaign failed|could not create|checked after its start/i);
  }, 660_000);
});
