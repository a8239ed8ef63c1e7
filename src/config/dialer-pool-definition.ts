import { z } from "zod";
import { e164Phone } from "../api/schemas/common.ts";
import { resourceName } from "./resource-name.ts";

/** How a callee is matched to a pool's dialer, most local first: the job lists them in its order. */
export const DIALER_MATCHES = ["areaCode", "state", "zone", "any"] as const;
export type DialerMatch = (typeof DIALER_MATCHES)[number];

/**
 * One dialer of a pool: a resource of resources/ (its `phone_number` is there), or an id with its
 * number (the service has no dialer list or read, so vcw can't learn a number from an id).
 */
const poolDialer = z.union(
  [
    z.strictObject({ resource: resourceName }),
    z.strictObject({ id: z.string().min(1, "must not be empty"), number: e164Phone() }),
  ],
  {
    error:
      "must be { resource: NAME } or { id: ..., number: +E164 }: the service can't list dialers, so an id needs its number",
  },
);

export const DialerPool = z
  .strictObject({
    pool: z.array(poolDialer).min(1, "needs at least one dialer").meta({
      description:
        "The dialers to choose from, by resource or by id with its phone number; ties go to the first.",
    }),
    match: z
      .array(z.enum(DIALER_MATCHES))
      .min(1)
      .default([...DIALER_MATCHES])
      .meta({
        description:
          "How a callee's number is matched to a dialer's, tried in this order: areaCode, state (or province), zone, any. A callee no listed match reaches is not called.",
      }),
    perNumber: z
      .strictObject({
        perDay: z
          .number()
          .int()
          .positive()
          .optional()
          .meta({ description: "Calls per dialer number per UTC day." }),
        perHour: z
          .number()
          .int()
          .positive()
          .optional()
          .meta({ description: "Calls per dialer number per UTC hour (counted at its campaign's start)." }),
        whenSpent: z.enum(["next", "wait"]).default("next").meta({
          description:
            "next (default): a spent number's contacts go to their next match, and wait when none is left; wait: they wait for the number's next day (or hour).",
        }),
      })
      .optional()
      .meta({ description: "Budgets per number, across jobs and workers (Redis): never over." }),
  })
  .refine((p) => new Set(p.pool.map(poolDialerName)).size === p.pool.length, {
    message: "names a dialer twice",
    path: ["pool"],
  });

export type DialerPool = z.output<typeof DialerPool>;
export type PoolDialerRef = z.output<typeof poolDialer>;

/** Every dialer a campaign names: its pool's, or its one. */
export function dialersOf<R>(c: { dialer: R; dialers?: { pool: readonly R[] } | undefined }): readonly R[] {
  return c.dialers?.pool ?? [c.dialer];
}

/** A pool dialer's name in campaign keys, names and reports: its resource's name, or its id. */
export function poolDialerName(d: { resource: string } | { id: string }): string {
  return "resource" in d ? d.resource : d.id;
}

/**
 * A pool declared in resources/ (`kind: dialerPool`), shared by jobs: the job loader puts its spec
 * in the job's place before the job is parsed (load-jobs.ts), so a parsed job always has the pool
 * itself. Met here, it was not read from the resource files.
 */
const poolResource = z
  .strictObject({ resource: resourceName })
  .meta({ description: "A dialerPool of resources/, by name: several jobs share one pool." })
  .transform((r, ctx) => {
    ctx.addIssue({
      code: "custom",
      message: `names dialerPool "${r.resource}", which was not read from the resource files`,
    });
    return z.NEVER;
  });

/** The branch a `campaign.dialers` value means: a resource by name, or a pool of its own. */
const meantBranch = (input: unknown) =>
  typeof input === "object" && input !== null && "resource" in input && !("pool" in input) ? 1 : 0;

/**
 * A job's `campaign.dialers`: a pool of its own, or a pool of resources/ by name. When neither
 * parses, the message is the meant branch's first problem with its place ("pool.0: ..."), not
 * zod's bare "Invalid input".
 */
export const JobDialers = z.union([DialerPool, poolResource], {
  error: (issue) => {
    if (issue.code !== "invalid_union") return undefined;
    const first = issue.errors[meantBranch(issue.input)]?.[0];
    return first && `${first.path.length > 0 ? `${first.path.join(".")}: ` : ""}${first.message}`;
  },
});
