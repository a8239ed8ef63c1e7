import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./files.ts";

export interface CallingJob {
  home: string;
  inbox: string;
  /** The job's name, also its segment's. */
  name: string;
}

/**
 * A home with one job that calls: its own segment, contacts read in US, a campaign started asap
 * with the given assistant (by name or id) and dialer, polled on `schedule`.
 */
export function callingJob(o: {
  assistant: { name: string } | { id: string };
  dialerId: string;
  schedule?: string;
}): CallingJob {
  const home = tempDir("vcw-calls-");
  const inbox = join(home, "inbox");
  mkdirSync(join(home, "jobs"));
  const name = `calls-${randomBytes(3).toString("hex")}`;
  const assistant = "id" in o.assistant ? `    id: ${o.assistant.id}` : `    name: ${o.assistant.name}`;
  writeFileSync(
    join(home, "jobs", "calls.yaml"),
    [
      `name: ${name}`,
      `inbox: ${inbox}`,
      "segment:",
      `  name: ${name}`,
      "contacts:",
      "  country: US",
      "campaign:",
      "  assistant:",
      assistant,
      "  dialer:",
      `    id: ${o.dialerId}`,
      "  start: asap",
      "polling:",
      `  schedule: "${o.schedule ?? "* * * * * *"}"`,
    ].join("\n"),
  );
  return { home, inbox, name };
}

/**
 * The text of a job whose window is in the callee's zone (every day, 07:00-22:00, Chicago when a
 * number says nothing), with its own segment and the given extra lines (a `calling:` block, say).
 */
export function calleeWindowJobYaml(name: string, inbox: string, extra: string[] = []): string {
  return [
    `name: ${name}`,
    `inbox: ${inbox}`,
    `segment: { name: ${name} }`,
    "contacts: { country: US }",
    "campaign:",
    "  assistant: { id: a1 }",
    "  dialer: { id: d1 }",
    "  start:",
    "    window: { days: [mon, tue, wed, thu, fri, sat, sun], from: '07:00', to: '22:00', timezone: callee, fallbackTimezone: America/Chicago }",
    ...extra,
  ].join("\n");
}
