import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JobDefinition } from "../../src/config/job-definition.ts";
import { formatProblem } from "../../src/config/job-problems.ts";
import { loadJobs } from "../../src/config/load-jobs.ts";
import { DEFAULT_SERVICE_PROFILE, ServiceProfile } from "../../src/config/service-profile.ts";
import { tempDir, writeFixture } from "../support/files.ts";

const job = (name: string, polling = "") =>
  `name: ${name}\ninbox: inbox/${name}\nsegment: { id: seg_1 }\n${polling ? `polling:\n${polling}` : ""}`;

/** The service's own words, none of them the defaults'. */
const SERVICE = [
  "statuses:",
  "  final: [done, gone, no-reply]",
  "  retry: [no-reply]",
  "  optedOut: [gone]",
  "  pending: [waiting, talking]",
  "  reached: [done]",
  "  unknownIs: pending",
  "inFlight: [talking]",
  "",
].join("\n");

/** A jobs folder holding `files` (name to text), loaded the way the daemon and every command load it. */
async function load(files: Record<string, string>) {
  const dir = tempDir("vcw-service-");
  for (const [name, text] of Object.entries(files)) writeFixture(dir, name, text);
  return { dir, loaded: await loadJobs(dir, join(dir, "no-resources")) };
}

describe("the service profile (jobs/service.yaml, decision 0072)", () => {
  it("its defaults are today's job defaults, and a job parsed alone still gets them", () => {
    expect(DEFAULT_SERVICE_PROFILE).toEqual({
      statuses: {
        final: ["completed", "no-answer", "busy", "voicemail", "failed", "opted-out"],
        retry: ["no-answer", "busy", "voicemail", "failed"],
        optedOut: ["opted-out"],
        pending: ["queued", "ringing", "in-progress"],
        reached: ["completed"],
        unknownIs: "final",
      },
      inFlight: ["ringing", "in-progress"],
    });
    const def = JobDefinition.parse({ name: "a", inbox: "inbox/a", segment: { id: "s" } });
    expect({ statuses: def.polling.statuses, inFlight: def.polling.inFlight }).toEqual(
      DEFAULT_SERVICE_PROFILE,
    );
    expect(ServiceProfile.safeParse({ statuses: { final: [] } }).success).toBe(false);
    expect(ServiceProfile.safeParse({ inFlightt: ["x"] }).success).toBe(false);
  });

  it("no service.yaml: every job has the defaults, and no warning", async () => {
    const { loaded } = await load({ "a.yaml": job("a") });
    expect(loaded.problems).toEqual([]);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.service).toEqual({ profile: DEFAULT_SERVICE_PROFILE });
    const { polling } = loaded.jobs[0]!.job;
    expect({ statuses: polling.statuses, inFlight: polling.inFlight }).toEqual(DEFAULT_SERVICE_PROFILE);
  });

  it("a job that writes none of the service's fields takes the profile's; service.yaml is not read as a job", async () => {
    const { dir, loaded } = await load({
      "service.yaml": SERVICE,
      "a.yaml": job("a", "  stuckAfterMinutes: 30\n"),
    });
    expect(loaded.problems).toEqual([]);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.service.file).toBe(join(dir, "service.yaml"));
    expect(loaded.jobs.map((j) => j.job.name)).toEqual(["a"]);
    const { polling } = loaded.jobs[0]!.job;
    expect(polling.stuckAfterMinutes).toBe(30);
    expect(polling.inFlight).toEqual(["talking"]);
    expect(polling.statuses).toEqual(loaded.service.profile.statuses);
    expect(polling.statuses).toMatchObject({ reached: ["done"], unknownIs: "pending" });
  });

  it("a job that still writes them keeps its own, the rest from the profile, with a warning per field and its line", async () => {
    const own = "  inFlight: [ringing]\n  statuses:\n    reached: [completed, voicemail]\n";
    const { dir, loaded } = await load({ "service.yml": SERVICE, "own.yaml": job("own", own) });
    expect(loaded.problems).toEqual([]);
    const { polling } = loaded.jobs[0]!.job;
    expect(polling.inFlight).toEqual(["ringing"]);
    expect(polling.statuses).toEqual({
      ...loaded.service.profile.statuses,
      reached: ["completed", "voicemail"],
    });
    const file = join(dir, "own.yaml");
    expect(loaded.warnings.map((w) => [w.kind, formatProblem(w)])).toEqual([
      [
        "service_setting",
        expect.stringMatching(/^.*own\.yaml:5: polling\.inFlight: describes the calling service/),
      ],
      [
        "service_setting",
        `${file}:7: polling.statuses.reached: describes the calling service, not the job: set it in ${join(dir, "service.yaml")} (this job's value still applies to it)`,
      ],
    ]);
  });

  it("a bad service.yaml is a problem with its file, path and line, and no job is loaded", async () => {
    const bad = "statuses:\n  final: []\n  reachd: [completed]\n";
    const { dir, loaded } = await load({ "service.yaml": bad, "a.yaml": job("a") });
    expect(loaded.jobs).toEqual([]);
    const file = join(dir, "service.yaml");
    expect(loaded.problems.map(formatProblem)).toEqual([
      expect.stringMatching(new RegExp(`^${file}:2: statuses\\.final: .*`)),
      `${file}:2: statuses: unknown field reachd`,
      `${join(dir, "a.yaml")}: not loaded: the service profile ${file} has a problem`,
    ]);
    const unparsable = await load({ "service.yaml": "inFlight: [unclosed\n", "a.yaml": job("a") });
    expect(unparsable.loaded.problems.map(formatProblem)[0]).toMatch(/service\.yaml:\d+: /);
  });

  it("an empty service.yaml is the defaults; two of them are a problem", async () => {
    const empty = await load({ "service.yaml": "# nothing yet\n", "a.yaml": job("a") });
    expect(empty.loaded.problems).toEqual([]);
    expect(empty.loaded.service.profile).toEqual(DEFAULT_SERVICE_PROFILE);
    const two = await load({ "service.yaml": SERVICE, "service.yml": SERVICE, "a.yaml": job("a") });
    expect(two.loaded.jobs).toEqual([]);
    expect(two.loaded.problems.map(formatProblem)[0]).toMatch(
      /service\.yml: is a second service profile beside/,
    );
  });
});
