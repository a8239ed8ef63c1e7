import cron from "node-cron";
import { z } from "zod";
import { e164Phone } from "../api/schemas/common.ts";
import { RULE_SET_IDS, RULE_SETS_DESCRIBED } from "../calling-rules/index.ts";
import { CONTACT_FIELDS } from "../ingest/headers.ts";
import { isCountryCode } from "../ingest/phone.ts";
import { isTimeZone, WEEKDAYS } from "../lib/time-zone.ts";
import { markCallingRules } from "./calling-rules-switch.ts";
import { JobDialers } from "./dialer-pool-definition.ts";
import { DisclosureDefinition } from "./disclosure-definition.ts";
import { readOldSpellings } from "./old-spellings.ts";
import { resourceName } from "./resource-name.ts";
import { SERVICE_FIELDS } from "./service-profile.ts";
import { experimentDefinition, variantsDefinition } from "./variant-definition.ts";

const MAPPABLE = [...CONTACT_FIELDS, "full_name"] as const;

const byIdOrName = (what: string) =>
  z.union(
    [
      z.strictObject({ id: z.string().min(1, "must not be empty") }),
      z.strictObject({ name: z.string().min(1, "must not be empty") }),
    ],
    { error: `must be { id: ... } or { name: ... } of the ${what}` },
  );

/** A resource of resources/ (vcw apply): its current version, whichever that is when a campaign is made. */
const byResource = z.strictObject({ resource: resourceName });

const assistantRef = z.union([...byIdOrName("assistant").options, byResource], {
  error: "must be { id: ... }, { name: ... } or { resource: ... } of the assistant",
});

/** A campaign field given once: `one` or `many` (variants, a pool), never both nor neither. */
const oneOf =
  (one: string, many: string, both: string, neither: string) =>
  (c: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const given = [c[one], c[many]].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: "custom", message: given === 2 ? both : neither, path: [one] });
  };

/** A campaign names its assistant once: `assistant`, or each of its `variants`' own. */
const oneAssistantSource = oneOf(
  "assistant",
  "variants",
  "names an assistant besides variants: each variant names its own (remove campaign.assistant)",
  "is required: the assistant that calls (or campaign.variants for an experiment)",
);

/** A campaign names its dialer once: `dialer`, or a pool in `dialers`. */
const oneDialerSource = oneOf(
  "dialer",
  "dialers",
  "names a dialer besides a pool: put it in campaign.dialers.pool (remove campaign.dialer)",
  "is required: the dialer that calls (or campaign.dialers for a pool)",
);

const cronExpression = z
  .string()
  .refine(
    (e) => cron.validate(e),
    "must be a cron expression such as */5 * * * * (optionally with seconds first)",
  );

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a 24-hour time such as 09:00");

const ianaZone = z.string().refine(isTimeZone, "must be an IANA time zone such as America/New_York");

/** The callee's own time zone, from their number (`timezone: callee`). */
export const CALLEE = "callee";

const CallingWindowSchema = z
  .strictObject({
    days: z
      .array(z.enum(WEEKDAYS, { error: `must be one of ${WEEKDAYS.join(", ")}` }))
      .min(1, "must name at least one day"),
    from: clock,
    to: clock,
    timezone: z
      .union([z.literal(CALLEE), ianaZone], {
        error: "must be an IANA time zone such as America/New_York, or callee",
      })
      .meta({
        description:
          "The window's zone, or callee: each contact's own zone from their number (one campaign per zone; calling.location.fallbackTimezone for numbers whose zone is unknown).",
      }),
  })
  .refine((w) => w.from < w.to, { message: "from must be before to", path: ["to"] });

const Start = z.union(
  [
    z.literal("asap"),
    z.strictObject({
      at: z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time with offset" }),
    }),
    z.strictObject({ window: CallingWindowSchema }),
  ],
  { error: "must be asap, { at: ISO date-time } or { window: { days, from, to, timezone } }" },
);

/**
 * A list of names where one may be written alone: `rules: us` is `rules: [us]`, `sinks: files` is
 * `sinks: [files]` (a lone value can mean nothing else). Editors see both forms in the schema.
 */
function oneOrMany<T extends z.ZodType>(item: T, error: string, min = 0) {
  return z
    .union([min > 0 ? z.array(item).min(min) : z.array(item), item], { error })
    .transform((v): z.output<T>[] => (Array.isArray(v) ? v : [v as z.output<T>]));
}

const SINK_NAMES = "must be a sink name (jobs/sinks.yaml, or log), or a list of them such as [log, files]";

/** What a job may require of a number's consent before it is called (decision 0067). */
export const CONSENT_REQUIREMENTS = ["none", "express", "written"] as const;

/** Rule sets a job may name: the rules' registry's list (`src/calling-rules/index.ts`), one folder each. */
export const CALLING_RULE_SETS = RULE_SET_IDS;

const callsPerNumber = z.number().int().min(1).optional();

/** Calling rules where the callee is: rule sets, caps, callBy, location columns, sizing. */
const CallingSchema = z
  .strictObject({
    rules: oneOrMany(
      z.enum(CALLING_RULE_SETS),
      `must be one of ${CALLING_RULE_SETS.join(", ")}, or a list of them such as [${CALLING_RULE_SETS.slice(0, 2).join(", ")}]`,
    )
      .optional()
      .meta({
        description: `Rule sets of the callee's location (docs/compliance.md): ${RULE_SETS_DESCRIBED}. They intersect the campaign's window: narrow, never widen. Default: [] when the block names anything besides location.fallbackTimezone and caps.recallAfterDays (the rules then apply: caps, pace, location columns), else no calling rules.`,
      }),
    custom: z
      .strictObject({
        days: z.array(z.enum(WEEKDAYS)).min(1).optional(),
        from: clock.optional(),
        to: clock.optional(),
      })
      .refine((c) => (c.from === undefined) === (c.to === undefined), {
        message: "from and to go together",
        path: ["to"],
      })
      .refine((c) => c.from === undefined || c.to === undefined || c.from < c.to, {
        message: "from must be before to",
        path: ["to"],
      })
      .optional()
      .meta({
        description:
          "The rules of `custom`: local hours at the callee's location (a number's caps are calling.caps, for every rule set).",
      }),
    caps: z
      .strictObject({
        per24h: callsPerNumber,
        per7d: callsPerNumber,
        recallAfterDays: z.number().min(0).default(7).meta({
          description:
            "A number any campaign called in the last N days is not put in a new campaign (skipped as recently_called); 0 turns it off. Applies with or without calling rules.",
        }),
      })
      .prefault({})
      .meta({
        description:
          "At most N calls per number per rolling 24 hours / 7 days, across all jobs and campaigns, follow-ups counted (the tightest of these and the rule sets' wins); and the cooldown between campaigns.",
      }),
    callBy: z
      .union([z.iso.datetime({ offset: true }), z.string().regex(/^\d+(h|d)$/)], {
        error: "must be an ISO 8601 date-time with offset, or an age such as 72h or 3d",
      })
      .optional()
      .meta({
        description:
          "How long a file's contacts stay callable: a date-time, or an age from the file's admission (72h, 3d). Those not called by then are dropped (call_by_passed), never called late.",
      }),
    location: z
      .strictObject({
        timezone: z.string().min(1).optional(),
        region: z.string().min(1).optional(),
        fallbackTimezone: ianaZone.optional().meta({
          description:
            "The zone of numbers whose own zone is unknown or ambiguous. Required with campaign.start.window.timezone: callee; applies with or without calling rules.",
        }),
      })
      .default({})
      .meta({
        description:
          "Where a contact is: headers of the columns saying so (time zone; state or region; default: found by name: Time Zone, State, Mailing State, Address: Region, Province...), and the fallback zone.",
      }),
    marginMinutes: z.number().min(0).default(15).meta({
      description: "A campaign is sized to end this long before its window closes.",
    }),
    callsPerMinute: z.number().positive().default(1).meta({
      description:
        "Calls ending per minute on the job's dialer until vcw has learned its pace from polls (conservative).",
    }),
    disclosure: DisclosureDefinition.prefault({}).meta({
      description: "The disclosure the job's assistant must make (vcw jobs check; docs/compliance.md).",
    }),
    consent: z
      .strictObject({
        require: z.enum(CONSENT_REQUIREMENTS).default("none").meta({
          description:
            "none (default: rows are called as before), express (a consent time on the row or kept from an earlier file) or written (its Consent Kind says written). Rows without it are refused (consent_missing, consent_not_written) in the errors report; a revoked consent never serves (docs/compliance.md).",
        }),
        countries: z
          .array(
            z
              .string()
              .refine(
                (c) => isCountryCode(c.toUpperCase()),
                "must be a two-letter country code such as US or CA",
              )
              .transform((c) => c.toUpperCase()),
          )
          .min(1)
          .optional()
          .meta({
            description:
              "The numbers `require` applies to, by the country the number belongs to (such as [US] for the TCPA's rules); left out, every number. Numbers of other countries are called without it; a revoked consent is honoured for every number.",
          }),
        seller: z.string().trim().min(1).max(200).optional().meta({
          description:
            "The seller the job calls for (such as Acme): only a consent naming this seller (its Seller column, compared trimmed and case-insensitive) serves `require`; rows whose consent names another seller are refused (consent_other_seller). Left out, a consent naming any seller serves, which prior express written consent does not allow when it names another seller (47 CFR 64.1200(f)(9); docs/compliance.md).",
        }),
      })
      .prefault({})
      .meta({
        description:
          "The consent a number needs before it is called. Consent columns (Consent Given At, Consent Kind, Consent Source, xxTrustedFormCertUrl, LeadiD...) are read and kept per number whatever it says.",
      }),
    horizonDays: z.number().int().min(1).max(14).default(7).meta({
      description:
        "How many days ahead campaigns are planned; contacts that fit in none are skipped (outside_hours).",
    }),
  })
  .prefault({})
  .meta({
    description:
      "Where the callee is, how often a number may be called, and calling rules where the callee is (docs/compliance.md); a block naming anything besides location.fallbackTimezone and caps.recallAfterDays turns on the rules (vcw preview shows the plan).",
  });

/** The zone of a job's calling window, if it has one. */
function windowZone(d: { campaign?: { start: z.output<typeof Start> } | undefined }): string | undefined {
  const start = d.campaign?.start;
  return start && start !== "asap" && "window" in start ? start.window.timezone : undefined;
}

/** What a scheduled report covers. */
export const REPORT_PERIODS = ["day", "week", "month", "since-last"] as const;

const JobShape = z
  .strictObject({
    name: z
      .string({ error: "is required: a short name of letters, digits and dashes" })
      .regex(
        /^[a-z0-9][a-z0-9-]{0,62}$/,
        "must be lower-case letters, digits and dashes, such as november-leads",
      ),
    description: z.string().optional(),
    inbox: z
      .string({ error: "is required: the folder (or s3://bucket/prefix/) to watch for contact files" })
      .min(1, "must not be empty")
      .meta({
        description:
          "Drop folder, relative to the working directory (default layout: inbox/<job>), or a bucket prefix s3://bucket/prefix/ that every worker watches (endpoint, region and credentials from the AWS environment: docs/bucket-inbox.md).",
      }),
    segment: z
      .union(
        [
          z.strictObject({
            name: z.string().min(1, "must not be empty").meta({
              description:
                "Found or created. May use {job}, {date}, {file} and {sha}: '{job} {file} {sha}' gives each file its own segment, so its campaign calls only that file's contacts.",
            }),
            description: z.string().optional(),
          }),
          z.strictObject({ id: z.string().min(1, "must not be empty") }),
        ],
        { error: "must be { name: ... } (found or created) or { id: ... }" },
      )
      .meta({ description: "Target segment: by name (created if missing) or by id." }),
    contacts: z
      .strictObject({
        country: z
          .string()
          .refine((c) => isCountryCode(c.toUpperCase()), "must be a two-letter country code such as US or GB")
          .optional()
          .meta({ description: "Country of phone numbers written without +country code." }),
        mapping: z
          .partialRecord(
            z.enum(MAPPABLE, { error: `must be one of ${MAPPABLE.join(", ")}` }),
            z.string().min(1),
          )
          .optional()
          .meta({ description: "field: Column header, wins over header names and patterns." }),
        emailPolicy: z.enum(["reject", "drop"]).default("reject"),
        sheet: z
          .union([z.string().min(1, "must not be empty"), z.number().int().min(1)], {
            error: "must be a sheet name or its position from 1",
          })
          .optional()
          .meta({
            description:
              "Sheet of an .xlsx workbook to read: its name (any case) or its position from 1. Default: the first visible sheet. Ignored for CSV files.",
          }),
      })
      .default({ emailPolicy: "reject" }),
    limits: z
      .strictObject({
        maxFileBytes: z.number().int().positive().optional(),
        maxRows: z.number().int().positive().optional(),
      })
      .default({}),
    import: z
      .strictObject({
        concurrency: z
          .number()
          .int()
          .min(1)
          .max(64)
          .default(8)
          .meta({ description: "Contact creates in flight per file." }),
      })
      .default({ concurrency: 8 }),
    campaign: z
      .strictObject({
        assistant: assistantRef.optional().meta({
          description:
            "By id, by name through assistants.list, or { resource: NAME } of resources/ (its current version). Or variants instead.",
        }),
        variants: variantsDefinition(assistantRef).optional(),
        experiment: experimentDefinition.optional(),
        dialer: z
          .union([z.strictObject({ id: z.string().min(1, "must not be empty") }), byResource], {
            error:
              "must be { id: ... } or { resource: ... }: the service has no dialer list, so a dialer is named by its id",
          })
          .optional()
          .meta({
            description:
              "By id, or { resource: NAME } of resources/ (the spec has no dialer list to find one by name). Or dialers instead.",
          }),
        dialers: JobDialers.optional().meta({
          description:
            "A pool of dialers instead of one (or { resource: NAME } of a dialerPool in resources/): each callee gets the dialer whose number fits theirs best (area code, state, zone), within budgets per number.",
        }),
        name: z.string().min(1).default("{job} {date} {file}").meta({
          description: "Name pattern: {job}, {date} (UTC, YYYY-MM-DD), {file}. The file hash is appended.",
        }),
        isAutomation: z.boolean().default(false),
        audience: z.enum(["file", "segment"]).default("file").meta({
          description:
            "file (default): each campaign calls exactly the file's new, callable contacts, in a segment of its own. segment: the campaign calls the job's whole standing segment.",
        }),
        start: Start.default("asap").meta({
          description: "asap, a fixed time, or the next opening of a calling window.",
        }),
      })
      .superRefine(oneAssistantSource)
      .superRefine(oneDialerSource)
      .transform((c) => ({
        ...c,
        assistant: (c.assistant ?? c.variants?.[0]?.assistant)!,
        // A pool's first dialer stands for the job where one is needed (the test call, the pace's key).
        dialer: (c.dialer ?? c.dialers?.pool[0])!,
      }))
      .optional()
      .meta({ description: "A campaign per imported file, created once its contacts are in." }),
    calling: CallingSchema,
    polling: z
      .strictObject({
        schedule: cronExpression.default("*/1 * * * *").meta({ description: "When audiences are polled." }),
        stuckAfterMinutes: z.number().positive().default(240),
        startGraceSeconds: z.number().min(0).default(15).meta({
          description:
            "A campaign is not polled before its scheduled start: its first poll comes this long after it.",
        }),
        inFlight: SERVICE_FIELDS.inFlight,
        quiet: z
          .strictObject({
            afterSeconds: z.number().min(0).default(30).meta({
              description:
                "A campaign with no call under way and no change for this long is polled less often.",
            }),
            ceilingSeconds: z.number().positive().default(60).meta({
              description:
                "The longest gap between two polls of a quiet campaign (the first change ends it).",
            }),
          })
          .prefault({}),
        statuses: SERVICE_FIELDS.statuses,
      })
      .prefault({}),
    followUps: z
      .strictObject({
        attempts: z.number().int().min(1).max(10).meta({ description: "Follow-up campaigns at most." }),
        spacingMinutes: z.number().min(0).default(60),
      })
      .optional()
      .meta({ description: "Call again contacts whose result means try again." }),
    summaries: z
      .strictObject({
        sinks: oneOrMany(z.string().min(1), SINK_NAMES).default([]),
        progress: cronExpression.optional().meta({ description: "Send progress when something changed." }),
      })
      .prefault({})
      .meta({ description: "Where campaign summaries go (names from jobs/sinks.yaml)." }),
    preflight: z
      .strictObject({
        to: z
          .array(e164Phone())
          .min(1, "must name at least one number")
          .max(5, "must name at most 5 numbers"),
      })
      .optional()
      .meta({
        description:
          "Before the job's first campaign of a day (UTC), a playground test call from its assistant and dialer to these numbers (the operator's own).",
      }),
    reports: z
      .array(
        z.strictObject({
          cron: cronExpression.meta({ description: "When the report is made, in its timezone." }),
          sinks: oneOrMany(z.string().min(1), SINK_NAMES, 1),
          timezone: ianaZone.optional().meta({
            description:
              "IANA zone of the cron and of the report's clock times. Default: the calling window's zone (calling.location.fallbackTimezone with timezone: callee), else UTC.",
          }),
          period: z.enum(REPORT_PERIODS).default("since-last").meta({
            description:
              "What a report covers: the day, week or calendar month ending at its tick, or since-last (since the previous report of this entry; the default).",
          }),
        }),
      )
      .default([])
      .meta({
        description:
          "Scheduled reports of the job's period: totals, rates, charts and the change from the period before. A tick missed while no daemon ran is sent once at the next start.",
      }),
  })
  .refine((d) => windowZone(d) !== CALLEE || d.calling.location.fallbackTimezone !== undefined, {
    message:
      "needs calling.location.fallbackTimezone (the zone of numbers whose own zone is unknown or ambiguous)",
    path: ["campaign", "start", "window", "timezone"],
  })
  .refine(
    (d) =>
      !d.campaign ||
      d.campaign.audience === "file" ||
      d.campaign.start === "asap" ||
      !("window" in d.campaign.start) ||
      d.campaign.start.window.timezone !== CALLEE,
    {
      message: "timezone: callee needs campaign.audience: file (a standing segment can't be split by zone)",
      path: ["campaign", "start", "window", "timezone"],
    },
  )
  .refine((d) => !d.campaign?.experiment || d.campaign.variants, {
    message: "needs campaign.variants (two or more assistants to compare)",
    path: ["campaign", "experiment"],
  })
  .refine((d) => !d.campaign?.variants || d.campaign.audience === "file", {
    message: "variants need campaign.audience: file (a standing segment can't be split by variant)",
    path: ["campaign", "variants"],
  })
  .refine((d) => d.calling.consent.require === "none" || d.campaign?.audience !== "segment", {
    // Fail closed: vcw never deletes from a standing segment, so a contact there that lacks consent,
    // or whose consent was revoked, could not be withdrawn before the dial (decision 0067).
    message:
      "consent.require needs campaign.audience: file (a standing segment's contacts never passed the consent check, and a revoked number can't be taken out of it)",
    path: ["calling", "consent", "require"],
  })
  .refine((d) => !d.preflight || d.campaign, {
    message: "needs a campaign section (the test call uses its assistant and dialer)",
    path: ["preflight"],
  });

/**
 * A pipeline, one YAML file in jobs/: a drop folder whose CSV files become contacts of a segment.
 * Old spellings are read in their new places (old-spellings.ts); both, disagreeing, are an error.
 */
export const JobDefinition = z
  .preprocess(
    (raw, ctx) =>
      readOldSpellings(markCallingRules(raw), (m) =>
        ctx.addIssue({
          code: "custom",
          path: m.from.split("."),
          message: `is now ${m.to}, which the file gives too with another value: keep ${m.to} and remove this one`,
        }),
      ),
    JobShape,
  )
  .meta({ id: "JobDefinition", title: "vcw job definition" });

export type JobDefinition = z.output<typeof JobDefinition>;

const serviceFields = new Set<unknown>(Object.values(SERVICE_FIELDS));

/**
 * The JSON Schema published as jobs/schema.json, so editors autocomplete job files. It leaves out
 * the service's fields, which belong in jobs/service.yaml: an editor flags them in a job, as it
 * flags an old spelling, and vcw still reads them with a warning (decision 0072).
 */
export function jobJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(JobDefinition, {
    io: "input",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      const shape = zodSchema._zod.def.type === "object" ? (zodSchema as z.ZodObject).shape : {};
      for (const [key, field] of Object.entries(shape))
        if (serviceFields.has(field)) delete jsonSchema.properties?.[key];
    },
  }) as Record<string, unknown>;
}
