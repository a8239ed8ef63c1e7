import { between, pickWeighted, randomFor } from "./prng.ts";

/** How each call of a campaign will go, drawn once from the seed when the campaign starts. */
export type FinalStatus = "completed" | "no-answer" | "busy" | "voicemail" | "failed" | "opted-out";

export interface CallPlan {
  /** Simulated epoch ms at which the call is dialled, answered (or gives up ringing) and ends. */
  dialAt: number;
  answerAt: number;
  endAt: number;
  outcome: FinalStatus;
  sentiment: "positive" | "neutral" | "negative" | "";
  meeting: boolean;
  transferred: boolean;
  messageSent: boolean;
  error: string;
}

export interface CallModel {
  /** Simulated ms between two successive dials of a campaign. */
  pacingMs: number;
  /** Relative weight of each final outcome. */
  outcomes: Record<FinalStatus, number>;
  /** Assistant id or name -> its own weights (outcome-mix.ts): an experiment that converges. */
  outcomesByAssistant?: Record<string, Partial<Record<FinalStatus, number>>>;
  /** Dialer id or phone number -> its calls' own weights (outcome-mix.ts): a number carriers label spam. */
  outcomesByDialer?: Record<string, Partial<Record<FinalStatus, number>>>;
  /** The service's own words for statuses (outcome-mix.ts), as audiences report them. */
  statusNames?: Partial<Record<string, string>>;
}

export const DEFAULT_CALL_MODEL: CallModel = {
  pacingMs: 3_000,
  outcomes: { completed: 55, "no-answer": 14, busy: 7, voicemail: 10, failed: 5, "opted-out": 9 },
};

const SECOND = 1_000;
const FAILURES = ["SIP 503 Service Unavailable", "Carrier rejected the number", "Number not in service"];

export function planCall(
  seed: number,
  campaignId: string,
  index: number,
  phone: string,
  startAt: number,
  model: CallModel = DEFAULT_CALL_MODEL,
): CallPlan {
  const random = randomFor(seed, campaignId, phone, String(index));
  const dialAt = startAt + index * model.pacingMs + between(random, 0, 2) * SECOND;
  const outcome = pickWeighted(random, model.outcomes);
  const ringSeconds = {
    completed: between(random, 4, 20),
    "no-answer": 30,
    busy: between(random, 2, 5),
    voicemail: 25,
    failed: between(random, 1, 3),
    "opted-out": between(random, 4, 15),
  }[outcome];
  const talkSeconds = {
    completed: between(random, 30, 300),
    "no-answer": 0,
    busy: 0,
    voicemail: between(random, 15, 40),
    failed: 0,
    "opted-out": between(random, 10, 40),
  }[outcome];
  const answerAt = dialAt + ringSeconds * SECOND;
  const sentiment =
    outcome === "completed"
      ? pickWeighted(random, { positive: 5, neutral: 3, negative: 2 })
      : outcome === "opted-out"
        ? "negative"
        : "";
  return {
    dialAt,
    answerAt,
    endAt: answerAt + talkSeconds * SECOND,
    outcome,
    sentiment,
    meeting: outcome === "completed" && sentiment === "positive" && random() < 0.5,
    transferred: outcome === "completed" && random() < 0.1,
    messageSent: outcome === "voicemail" || (outcome === "completed" && random() < 0.3),
    error: outcome === "failed" ? FAILURES[between(random, 0, FAILURES.length - 1)]! : "",
  };
}

/**
 * How a started campaign treats its segment (`--campaign-segment`): `fixed`, its audience is the
 * segment as it stood at the start; `live`, a contact is dialled only if it is still in the segment
 * when its turn comes (the spec is silent: docs/spec-gaps.md).
 */
export type CampaignSegmentMode = "fixed" | "live";

/**
 * Whether a planned call is dialled: always in `fixed` mode; in `live` mode unless its contact left
 * the segment (`withdrawnAt`) before its dial. A call already dialled goes on.
 */
export const isDialled = (plan: CallPlan, mode: CampaignSegmentMode, withdrawnAt: number | undefined) =>
  mode === "fixed" || withdrawnAt === undefined || withdrawnAt >= plan.dialAt;

export interface AudienceContact {
  first_name?: string | undefined;
  last_name?: string | undefined;
  description?: string | undefined;
  phone: string;
}

/** The audience entry (spec 2.7) of a planned call as seen at simulated time `now`. */
export function audienceEntryAt(
  plan: CallPlan,
  contact: AudienceContact,
  now: number,
  recordingUrl: string,
): Record<string, string | boolean> {
  const final = now >= plan.endAt;
  const talking = now >= plan.answerAt && !final;
  const status = final ? plan.outcome : talking ? "in-progress" : now >= plan.dialAt ? "ringing" : "queued";
  const talked = Math.max(0, Math.floor((Math.min(now, plan.endAt) - plan.answerAt) / SECOND));
  const recorded = final && plan.endAt > plan.answerAt;
  return {
    first_name: contact.first_name ?? "",
    last_name: contact.last_name ?? "",
    description: contact.description ?? "",
    phone: contact.phone,
    status,
    call_duration_in_sec: String(talked),
    call_sentiment: final ? plan.sentiment : "",
    calltranscribe: final ? transcriptOf(plan, contact.first_name) : "",
    is_call_transferred: final && plan.transferred,
    is_meeting_scheduled: final && plan.meeting,
    is_message_sent: final && plan.messageSent,
    recording_url: recorded ? recordingUrl : "",
    error: final ? plan.error : "",
  };
}

function transcriptOf(plan: CallPlan, firstName: string | undefined): string {
  const hello = `Assistant: Hello${firstName ? ` ${firstName}` : ""}, this is an automated call.`;
  switch (plan.outcome) {
    case "completed":
      return [
        hello,
        {
          positive: "Customer: Sounds great, tell me more.",
          neutral: "Customer: I see, thanks for the information.",
          negative: "Customer: I'm not happy with the service.",
          "": "",
        }[plan.sentiment],
        plan.meeting ? "Assistant: I have booked a meeting for you." : "Assistant: Thank you for your time.",
      ].join("\n");
    case "opted-out":
      return `${hello}\nCustomer: Please don't call me again.\nAssistant: Understood, you will not be called again.`;
    case "voicemail":
      return `${hello} Please call us back at your convenience.`;
    default:
      return "";
  }
}
