import type { CancelOutcome } from "../../pipeline/campaign/cancel-campaign.ts";

/** The service has no operation to stop a campaign once it exists (docs/spec-gaps.md). */
export const NO_STOP =
  "the service has no operation to pause or stop a campaign once it exists: its calls go on as scheduled";

/** One outcome of `cancelCampaigns` as the operator reads it (the CLI and the dashboard). */
export function cancelLine(o: CancelOutcome): string {
  const which = `${o.name} (${o.request})`;
  switch (o.kind) {
    case "canceled":
      return `canceled before it was created: ${which}${o.already ? " (already canceled)" : ""}: no campaign was or will be created`;
    case "exists":
      return `exists: ${which} is campaign ${o.id}: it was created before the cancel; the service can't stop it`;
    case "may-exist":
      return `may exist: ${which}: ${o.why === "create-in-flight" ? "its create is being sent now" : "its create was sent and the answer lost"}; the service can't stop it. vcw keeps looking it up and tracks it if it exists; if it doesn't, it won't be created`;
  }
}
