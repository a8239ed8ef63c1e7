import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { campaignFileBase } from "../../src/lib/campaign-file-name.ts";
import { maskPhone } from "../../src/lib/mask-phone.ts";
import { RESULT_COLUMNS } from "../../src/pipeline/reports/results-csv.ts";
import { useCallingDaemon } from "../support/calling-daemon.ts";
import { drop, testSettings, waitFor } from "../support/daemon.ts";

/** Numbers of two zones far apart: the planner makes a campaign for each. */
const CALLEES = {
  "America/Los_Angeles": ["+13105550141", "+13105550142", "+13105550143"],
  "Europe/London": ["+442079460144", "+442079460145"],
};

describe("results files of zoned campaigns: names that keep job, date, file and zone; one format", () => {
  // 600 simulated seconds a real second: each campaign's calls end in about a second.
  const h = useCallingDaemon({ timeScale: 600 });

  it("each campaign's results file and download are named by job, date, file and zone, and hold the same CSV", async () => {
    const { home, inbox, name } = h.callingJob({
      // Open all day where each callee is: one campaign per zone, each starting at once.
      window:
        "{ days: [sun, mon, tue, wed, thu, fri, sat], from: '00:00', to: '23:59', timezone: callee, fallbackTimezone: America/New_York }",
      extra: ["summaries:", "  sinks: [files]"],
    });
    const out = join(home, "reports");
    writeFileSync(join(home, "jobs", "sinks.yaml"), `sinks:\n  files:\n    type: file\n    dir: ${out}\n`);
    // The campaigns start at once (their window is open): not about the settle wait.
    const settings = testSettings(home, h.t.sim.url, { VCW_HTTP_ADDR: "127.0.0.1:0", VCW_SETTLE_MS: "0" });
    const daemon = await h.start(settings);
    const rows = Object.values(CALLEES).flat();
    drop(inbox, "west and east.csv", `Phone,First Name\n${rows.map((p, i) => `${p},P${i}`).join("\n")}\n`);

    const store = daemon.stores.store;
    const finished = await waitFor(
      async () => {
        const all = await Promise.all((await store.allOf(name)).map((id) => store.get(id)));
        const done = all.filter((c) => c?.info.state === "finished");
        return done.length === 2 ? done.map((c) => c!.info) : undefined;
      },
      60_000,
      "both zones' campaigns finished",
    );
    const csvOf = (file: string) => readFileSync(join(out, file), "utf8");
    // The sink makes its folder with its first file, which may come a moment after the campaigns finish.
    const listed = () => (existsSync(out) ? readdirSync(out) : []);
    for (const info of finished) {
      const zone = info.zone!.replace("/", "-");
      const base = campaignFileBase(info);
      expect(base).toMatch(
        new RegExp(
          `^${name} \\d{4}-\\d\\d-\\d\\d west and east\\.csv #[0-9a-f]{8} \\[${zone}\\]\\.${info.id}$`,
        ),
      );
      const file = await waitFor(
        () => listed().find((f) => f === `${base}.results.csv` && csvOf(f).split("\r\n").length > 2),
        20_000,
        `the results of ${info.zone} in ${out}`,
      );
      // The sink writes the results, then logs the delivery beside them: on a busy machine, a moment later.
      await waitFor(
        () => listed().find((f) => f === `${base}.events.jsonl`),
        20_000,
        `the events log of ${info.zone} in ${out}`,
      );

      // The dashboard's download: the same name, the same columns in the same order, phones masked.
      const res = await fetch(`${daemon.http!.url}/campaigns/${encodeURIComponent(info.id)}/results.csv`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename*=UTF-8''${encodeURIComponent(`${base}.results.csv`)}`,
      );
      const downloaded = Buffer.from(await res.arrayBuffer()).toString("utf8");
      const phones = CALLEES[info.zone as keyof typeof CALLEES];
      let masked = csvOf(file);
      for (const p of phones) masked = masked.replace(`'${p}`, `'${maskPhone(p)}`);
      expect(downloaded).toBe(masked);
      expect(downloaded.split("\r\n")[0]).toBe(`\uFEFF${RESULT_COLUMNS.join(",")}`);
      expect(downloaded.split("\r\n").filter(Boolean)).toHaveLength(phones.length + 1);
      for (const p of phones) expect(downloaded).not.toContain(p);
    }
    expect(readdirSync(out).filter((f) => f.startsWith("Los_Angeles]") || f.startsWith("London]"))).toEqual(
      [],
    );
  }, 90_000);
});
