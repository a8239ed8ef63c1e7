import { z } from "zod";
import { AUDIENCE_STATUSES } from "../api/schemas/audience-status.ts";
import { isMap } from "./old-spellings.ts";

/** The statuses that count as reached when the profile names none (`statuses.reached`). */
export const DEFAULT_REACHED = ["completed"] as const;

const statusList = z.array(z.string().min(1)).min(1);

/** The service's words for a call's state: the defaults are the simulator's (docs/spec-gaps.md). */
const Statuses = z
  .strictObject({
    final: statusList.default([
      ...AUDIENCE_STATUSES.done,
      ...AUDIENCE_STATUSES.retry,
      ...AUDIENCE_STATUSES.optedOut,
    ]),
    retry: statusList.default([...AUDIENCE_STATUSES.retry]),
    optedOut: statusList.default([...AUDIENCE_STATUSES.optedOut]),
    pending: statusList.default([...AUDIENCE_STATUSES.pending]).meta({
      description: "Statuses of calls not over yet.",
    }),
    reached: statusList.default([...DEFAULT_REACHED]).meta({
      description:
        "Statuses that mean the callee was reached: reports count them as reached and give the reach rate.",
    }),
    unknownIs: z.enum(["final", "pending"]).default("final").meta({
      description:
        "How a status in no list counts (it is warned about once per campaign and counted under unknown).",
    }),
  })
  .prefault({});

const InFlight = statusList.default(["ringing", "in-progress"]).meta({
  description: "Statuses of calls under way: while an entry shows one, every tick polls the campaign.",
});

/**
 * jobs/service.yaml: the calling service's status vocabulary, the same for every job (decision 0072).
 * The job schema reuses these fields, so their defaults live here only.
 */
export const ServiceProfile = z
  .strictObject({ statuses: Statuses, inFlight: InFlight })
  .meta({ id: "ServiceProfile", title: "vcw service profile" });

export type ServiceProfile = z.output<typeof ServiceProfile>;

/** The profile of a jobs folder without jobs/service.yaml: the defaults. */
export const DEFAULT_SERVICE_PROFILE: ServiceProfile = ServiceProfile.parse({});

/** The profile's fields as the job schema holds them under `polling` (where jobs wrote them before). */
export const SERVICE_FIELDS = ServiceProfile.shape;

/** A map's field as written (null stays null, for the schema to refuse), or an empty map. */
const given = (map: Record<string, unknown>, key: string): unknown => (key in map ? map[key] : {});

/**
 * A raw job file given the profile's values for the service fields it does not write, and the
 * paths of those it writes (each still applies to it, with a warning). A `polling` or
 * `polling.statuses` that is not a map is left for the schema to name.
 */
export function withServiceProfile(
  raw: unknown,
  profile: ServiceProfile,
): { value: unknown; written: string[] } {
  const polling = isMap(raw) ? given(raw, "polling") : undefined;
  if (!isMap(raw) || !isMap(polling)) return { value: raw, written: [] };
  const statuses = given(polling, "statuses");
  if (!isMap(statuses)) return { value: raw, written: [] };
  const own = Object.keys(Statuses.unwrap().shape).filter((k) => k in statuses);
  const written = [
    ...("inFlight" in polling ? ["polling.inFlight"] : []),
    ...own.map((k) => `polling.statuses.${k}`),
  ];
  const value = {
    ...raw,
    polling: {
      ...polling,
      inFlight: "inFlight" in polling ? polling.inFlight : profile.inFlight,
      statuses: { ...profile.statuses, ...statuses },
    },
  };
  return { value, written };
}

/** The JSON Schema published as jobs/service.schema.json, for editors. */
export function serviceJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ServiceProfile, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
