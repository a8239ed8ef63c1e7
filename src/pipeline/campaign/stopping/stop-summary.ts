import { counted } from "../../../lib/plural.ts";
import type { CampaignStop } from "../../stores/stop-store.ts";

const REASONS: Record<CampaignStop["reason"], string> = {
  "window-closed": "its calling window closed",
  "opted-out": "contacts opted out",
  "frequency-cap": "contacts reached a frequency cap",
  operator: "an operator stopped it (vcw stop)",
};

/** A stop in words, for `vcw status` and logs. Pure. */
export function describeStop(stop: CampaignStop): string {
  const parts = [
    `stopped: ${stop.reasons.map((r) => REASONS[r]).join("; ")}`,
    stop.flagged > 0
      ? `${counted(stop.flagged, "contact")} not yet called left in the job's standing segment (flagged only)`
      : `${counted(stop.withdrawn, "contact")} not yet called taken out of its segment`,
  ];
  if (stop.withdrawn > 0)
    parts.push(
      {
        yes: "the service honoured it",
        no: `the service did NOT honour it: ${stop.calledAfter} called after the delete`,
        pending: "whether the service honours it is not known yet",
        "n/a": "",
      }[stop.honoured],
    );
  if (stop.ranPastWindow) parts.push("RAN PAST ITS WINDOW: calls started after the window closed");
  if (stop.handedBackTo) parts.push(`the rest are called by ${stop.handedBackTo}`);
  else if (stop.handBack) parts.push("the rest are called at the next opening once it ends");
  return parts.filter(Boolean).join("; ");
}

/** What a stop did, in words (`vcw stop`). */
export const stopWords = (withdrawn: number, flagged: number) =>
  flagged > 0
    ? `${counted(flagged, "contact")} not yet called are in the job's standing segment: vcw can't take them out (flagged)`
    : `${counted(withdrawn, "contact")} not yet called taken out of its segment`;
