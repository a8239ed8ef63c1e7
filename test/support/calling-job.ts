import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./files.ts";

/** What a test's calling job says; each part left out is what most tests want. */
export interface JobYaml {
  name: string;
  inbox: string;
  /** By name or by id. */
  assistant: { name: string } | { id: string };
  dialerId: string;
  description?: string;
  /** The segment's name, or a template such as `{job} {file}`: the job's name when left out. */
  segment?: string;
  /** The campaign's `window:` (a flow mapping); left out, the campaign starts asap. */
  window?: string;
  /** The results poll's cron, every second when left out; `false`: no `polling:` section. */
  schedule?: string | false;
  /** Lines after these: summaries, follow-ups, a `calling:` block... */
  extra?: string[];
}

/** The one builder of the tests' job files: contacts read in US, one segment, one campaign. */
export function jobYaml(o: JobYaml): string {
  const assistant =
    "id" in o.assistant ? `{ id: ${o.assistant.id} }` : `{ name: ${JSON.stringify(o.assistant.name)} }`;
  return [
    `name: ${o.name}`,
    ...(o.description ? [`description: ${o.description}`] : []),
    `inbox: ${o.inbox}`,
    `segment: { name: ${JSON.stringify(o.segment ?? o.name)} }`,
    "contacts: { country: US }",
    "campaign:",
    `  assistant: ${assistant}`,
    `  dialer: { id: ${o.dialerId} }`,
    ...(o.window ? ["  start:", `    window: ${o.window}`] : ["  start: asap"]),
    ...(o.schedule === false ? [] : [`polling: { schedule: "${o.schedule ?? "* * * * * *"}" }`]),
    ...(o.extra ?? []),
  ].join("\n");
}

export interface CallingJob {
  home: string;
  inbox: string;
  /** The job's name, also its segment's unless the job says otherwise. */
  name: string;
}

/** A home (a temporary folder) with one calling job, `jobs/calls.yaml`, named `calls-<hex>`. */
export function callingJob(o: Omit<JobYaml, "name" | "inbox">): CallingJob {
  const home = tempDir("vcw-calls-");
  const inbox = join(home, "inbox");
  mkdirSync(join(home, "jobs"));
  const name = `calls-${randomBytes(3).toString("hex")}`;
  writeFileSync(join(home, "jobs", "calls.yaml"), jobYaml({ ...o, name, inbox }));
  return { home, inbox, name };
}

/** A webhook sink `crm` that no one receives: its deliveries fail (port 9 is closed). */
export const UNREACHABLE_CRM_SINKS =
  "sinks:\n  crm:\n    type: webhook\n    url: http://127.0.0.1:9/hook\n    timeoutMs: 1000\n";

/**
 * The text of a job whose window is in the callee's zone (every day, 07:00-22:00, Chicago when a
 * number says nothing), with its own segment and the given extra lines (a `calling:` block, say).
 */
export function calleeWindowJobYaml(name: string, inbox: string, extra: string[] = []): string {
  return jobYaml({
    name,
    inbox,
    assistant: { id: "a1" },
    dialerId: "d1",
    window:
      "{ days: [mon, tue, wed, thu, fri, sat, sun], from: '07:00', to: '22:00', timezone: callee, fallbackTimezone: America/Chicago }",
    schedule: false,
    extra,
  });
}
