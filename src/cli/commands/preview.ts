import { Command } from "commander";
import type { JobDefinition } from "../../config/job-definition.ts";
import { formatProblem } from "../../config/job-problems.ts";
import { findJob, loadJobs } from "../../config/load-jobs.ts";
import { experimentId } from "../../config/variant-definition.ts";
import { keysExpected, startHoldOf } from "../../daemon/calling-service.ts";
import { reasonWords } from "../../ingest/reason-words.ts";
import { maskPhone } from "../../lib/mask-phone.ts";
import { counted } from "../../lib/plural.ts";
import { zonedTime } from "../../lib/zoned-time.ts";
import { dialerKeyOf } from "../../pipeline/calling/plan-settings.ts";
import { type PreviewReport, type PreviewSources, previewFile } from "../../pipeline/calling/preview.ts";
import { holdMsOf, type StartHold, startReason } from "../../pipeline/campaign/start-reason.ts";
import type { Stores } from "../../pipeline/open-stores.ts";
import { experimentPlan } from "../../pipeline/reports/experiment-plan.ts";
import { assistantCatalog } from "../../pipeline/resources/assistant-catalog.ts";
import { missingServiceRefs } from "../../pipeline/resources/service-refs.ts";
import { CliError } from "../cli-error.ts";
import { serviceClient } from "../service-client.ts";
import { withRedis } from "../with-redis.ts";

/** `vcw preview FILE --job NAME`: the campaigns a file would get, read from the file and Redis, writing nothing. */
export function previewCommand(): Command {
  return new Command("preview")
    .description(
      "Show the campaigns a contact file would get if dropped now (or --at): who is called when, who later, who is skipped and why. Reads the file and Redis; writes nothing",
    )
    .argument("<file>", "CSV or .xlsx contact file")
    .requiredOption("--job <name>", "the job the file would be dropped for")
    .option("--at <iso>", "plan as if dropped at this ISO 8601 time (default: now)")
    .option("--json", "print one JSON object, phones whole (E.164): what scripts need; the text masks them")
    .action(async (file: string, o: { job: string; at?: string; json?: boolean }) => {
      const at = o.at === undefined ? Date.now() : Date.parse(o.at);
      if (Number.isNaN(at))
        throw new CliError(`--at ${o.at} is not an ISO 8601 time such as 2026-11-23T20:30:00Z`, 2);
      await withRedis(async ({ stores, settings }) => {
        const found = await jobNamed(settings.jobsDir.value, o.job);
        const def = found.job;
        const hold = startHoldOf(settings, keysExpected(settings));
        const report = withStartReasons(
          await previewFile(def, file, previewSources(stores, def), at, holdMsOf(hold)),
          hold,
        );
        // The assistants the service does not have (when it answers): those campaigns would fail.
        const problems = (await missingServiceRefs([found], await serviceCatalog())).map(
          (p) =>
            `${formatProblem(p)}: ${p.variant ? `variant ${p.variant}'s campaigns` : "its campaigns"} would fail`,
        );
        if (problems.length > 0) process.exitCode = 1;
        process.stdout.write(
          o.json ? `${JSON.stringify({ ...report, problems })}\n` : previewText(report, problems, def),
        );
      });
    });
}

/** Each campaign's reason for its start where the hold after its create decided it, as the daemon logs it. */
function withStartReasons(r: PreviewReport, hold: StartHold): PreviewReport {
  const at = Date.parse(r.at);
  return {
    ...r,
    campaigns: r.campaigns.map((c) => {
      const why = startReason(Date.parse(c.scheduledAt), at, hold);
      return why ? { ...c, startReason: why } : c;
    }),
  };
}

/** The stores a preview reads (opened once: pipeline/open-stores.ts). */
type PreviewStores = Pick<
  Stores,
  "history" | "suppression" | "frequency" | "pace" | "experiments" | "resources" | "rests"
>;

/** What a preview reads of Redis, writing nothing: suppression, calls, pace, the experiment's decisions. */
export function previewSources(stores: PreviewStores, def: JobDefinition): PreviewSources {
  const { history, suppression, frequency, pace } = stores;
  return {
    suppressed: (phones) => suppression.which(phones),
    lastCalled: (phones) => history.lastCalls(phones),
    callTimes: (phones, now) => frequency.callTimes(phones, now),
    pace: () => pace.pace(dialerKeyOf(def)),
    assignment: () => stores.experiments.assignment(experimentId(def.name, def.campaign?.experiment)),
    dialerNumber: (name) => stores.resources.dialerNumber(name),
    resting: async (numbers) => new Set((await stores.rests.resting(numbers)).keys()),
  };
}

async function jobNamed(dir: string, name: string) {
  const found = findJob(await loadJobs(dir), name, dir);
  if ("error" in found) throw new CliError(found.error, 2);
  return found;
}

/** The service's assistants, when it answers (an assistant resource is `vcw apply`'s to check). */
const serviceCatalog = async () => assistantCatalog({ client: await serviceClient() });

/** The plan for a person: what would fail first, then phones masked, a line per campaign, its times in its zone. */
export function previewText(r: PreviewReport, problems: readonly string[] = [], def?: JobDefinition): string {
  const lines = [
    `${r.file} for job ${r.job}, as if dropped at ${zonedTime(r.at, "UTC")}`,
    ...problems.map((p) => `problem: ${p}`),
    r.pace.callsPerMinute === null
      ? "pace: none (no calling: block): each campaign takes all its contacts at its window's opening"
      : `pace: ${r.pace.callsPerMinute.toFixed(2)} calls/min per campaign (${r.pace.learned ? "learned from polls" : "default: calling.callsPerMinute"})`,
    r.campaigns.length === 0 ? "no campaign" : `${counted(r.campaigns.length, "campaign")}:`,
  ];
  for (const c of r.campaigns) {
    const shown = c.phones.slice(0, 3).map(maskPhone).join(", ");
    // A campaign of several zones (its label says "+n") reads its times in the first.
    const at = (iso: string) => zonedTime(iso, c.zones[0] ?? "UTC");
    lines.push(
      `  ${c.label}${c.region ? ` (${c.region})` : ""}${c.variant ? ` variant ${c.variant}` : ""}${c.dialer ? ` from ${c.dialer.number} (${Object.keys(c.dialer.matched).join(", ")})` : ""}: ${counted(c.contacts, "contact")}, starts ${at(c.scheduledAt)}${c.startReason ? ` (${c.startReason})` : ""}, ${r.pace.callsPerMinute === null ? "" : `expected end ${at(c.expectedEndAt)}, `}calls until ${at(c.callUntil)} [${c.rules.join(", ") || "job window"}] ${shown}${c.phones.length > 3 ? ", ..." : ""}`,
    );
  }
  lines.push(
    `later: ${counted(r.later.contacts, "contact")} at later openings (window full ${r.later.windowFull}, frequency cap ${r.later.frequencyCap})`,
  );
  const skipped = Object.entries(r.skipped);
  lines.push(
    skipped.length === 0
      ? "skipped: none"
      : `skipped: ${skipped.map(([k, n]) => `${reasonWords(k)} ${n}`).join(", ")}`,
  );
  const variants = def?.campaign?.variants;
  if (variants) {
    // What the experiment can find at this file's size (vcw experiment plan says more).
    const contacts = r.campaigns.reduce((n, c) => n + c.contacts, 0);
    const plan = experimentPlan(variants, {
      contacts,
      baseRate: 0.3,
      plannedContacts: def.campaign?.experiment?.plannedContacts ?? 5000,
    });
    lines.push(
      `experiment: ${plan.rows.map((x) => `${x.variant} against ${x.against} can find ${Number.isFinite(x.sequential) ? `${Math.round(x.sequential * 1000) / 10} pts` : "nothing"}`).join(", ")} at 80% power (always-valid, base rate 30% assumed; vcw experiment plan ${def.name} --file ... --base-rate ... for yours)`,
    );
  }
  return `${lines.join("\n")}\n`;
}
