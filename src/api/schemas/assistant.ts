import { z } from "zod";
import {
  calendarDate,
  clock12h,
  expected,
  httpUrl,
  isBlank,
  looseFlag,
  looseNumber,
  looseText,
  minutesOf12h,
  oneOfNumbers,
  recordId,
  requiredText,
  withNormalizedId,
} from "./common.ts";
import { Language } from "./language.ts";

const tenths = (from: number, to: number) =>
  Array.from({ length: Math.round((to - from) * 10) + 1 }, (_, i) => Math.round((from + i / 10) * 10) / 10);

export const VOICE_SPEEDS = tenths(1, 2);
export const TEMPERATURES = tenths(0.7, 2);
export const SENSITIVITIES = Array.from({ length: 15 }, (_, i) => 600 + i * 100);
export const UTTERANCE_LENGTHS = Array.from({ length: 10 }, (_, i) => i + 1);
export const FILLERS = ["umm", "uhh"] as const;
export const ASSISTANT_IMAGE_NUMBERS = [1, 3, 4, 5] as const;
export const ASSISTANT_TYPES = ["inbound", "outbound"] as const;

/**
 * The spec says the opt-out script is "a single fixed instruction text" without giving it
 * (docs/spec-gaps.md). This is our reconstruction of it; the simulator accepts only this text.
 */
export const OPT_OUT_SCRIPT =
  "If the person says they no longer wish to be called, invoke the optOut function and tell them they will not be called again.";

const ASSISTANT_IMAGE_PATH = new RegExp(`/assistant_profile/(${ASSISTANT_IMAGE_NUMBERS.join("|")})\\.jpeg$`);

export const Sentiment = z
  .strictObject({
    general_prompt: requiredText(),
    positive_prompt: requiredText(),
    negative_prompt: requiredText(),
    neutral_prompt: requiredText(),
  })
  .meta({ id: "Sentiment", description: "Sentiment classification prompts (spec 2.2)." });

/** The action object (spec 2.3). */
export const Action = z
  .strictObject({
    type: z.literal("scheduleMeeting", { error: expected("scheduleMeeting") }),
    meetingType: z.literal("openBooking", { error: expected("openBooking") }),
    startDate: calendarDate(),
    startTime: clock12h(),
    endTime: clock12h(),
    bookingDays: requiredText().refine(
      (s) => s.split(",").every((day) => day.trim().length > 0),
      "must be a comma-separated list of days without empty items, such as Monday,Tuesday",
    ),
    timezone: requiredText().optional(),
    description: z.string().optional(),
    say: z.string().optional(),
    length: z.number().int("must be a whole number of minutes").positive("must be positive").optional(),
    prompt: z.string().optional(),
  })
  .superRefine((a, ctx) => {
    // zod runs this even when a field failed its own check: compare only two valid times.
    const start = clock12h().safeParse(a.startTime).success ? minutesOf12h(a.startTime) : undefined;
    const end = clock12h().safeParse(a.endTime).success ? minutesOf12h(a.endTime) : undefined;
    if (start !== undefined && end !== undefined && end <= start) {
      ctx.addIssue({ code: "custom", path: ["endTime"], message: "must be later than startTime" });
    }
  })
  .meta({ id: "Action", description: "Assistant action (spec 2.3)." });

export type Action = z.input<typeof Action>;

/**
 * Create assistant request. The spec's request list and the Assistant schema's required list
 * disagree (docs/spec-gaps.md): every Assistant field is accepted; required are the fields on both
 * lists, plus voice_note when is_voice_note and opt_out_script when is_opt_out.
 */
export const AssistantCreate = z
  .strictObject({
    type: z.enum(ASSISTANT_TYPES, { error: expected("inbound or outbound") }).optional(),
    language: Language.optional(),
    name: requiredText(),
    company_name: requiredText(),
    accent: requiredText(),
    actions: z.array(Action, { error: expected("an array of action objects") }).optional(),
    goal: requiredText(),
    start_speech: requiredText(),
    voice_id: requiredText(),
    voice_name: requiredText(),
    automation_hook: httpUrl().optional(),
    script: requiredText(),
    knowledge_base_Id: requiredText().optional(),
    maximum_time_per_call: z
      .number({ error: expected("a number of minutes") })
      .positive("must be a positive number of minutes")
      .finite(),
    is_recording: z.boolean({ error: expected("true or false") }).optional(),
    is_voice_note: z.boolean({ error: expected("true or false") }),
    voice_note: z.string({ error: expected("a string") }).optional(),
    ai_model_id: requiredText(),
    sentiment: Sentiment,
    is_back_sound: z.boolean({ error: expected("true or false") }).optional(),
    voice_speed: oneOfNumbers(VOICE_SPEEDS).optional(),
    is_filler: z.boolean({ error: expected("true or false") }).optional(),
    fillers: z
      .array(z.enum(FILLERS, { error: expected("umm or uhh") }), { error: expected("an array") })
      .optional(),
    assistant_image: httpUrl()
      .refine(
        (u) => URL.canParse(u) && ASSISTANT_IMAGE_PATH.test(new URL(u).pathname),
        `must be one of the four profile images <image_base_url>/assistant_profile/<n>.jpeg with n in ${ASSISTANT_IMAGE_NUMBERS.join(", ")}`,
      )
      .optional(),
    ai_modal: requiredText(),
    is_sensitivity: z.boolean({ error: expected("true or false") }).optional(),
    sensitivity: oneOfNumbers(SENSITIVITIES).optional(),
    temperature: oneOfNumbers(TEMPERATURES).optional(),
    is_opt_out: z.boolean({ error: expected("true or false") }).optional(),
    opt_out_script: z.string({ error: expected("a string") }).optional(),
    is_wait_start_speech: z.boolean({ error: expected("true or false") }).optional(),
    utterance_length: oneOfNumbers(UTTERANCE_LENGTHS).optional(),
    meeting_note_prompt: requiredText(),
    call_outcome_prompt: requiredText(),
  })
  .superRefine((a, ctx) => {
    if (a.is_voice_note === true && isBlank(a.voice_note)) {
      ctx.addIssue({
        code: "custom",
        path: ["voice_note"],
        message: "is required when is_voice_note is true",
      });
    }
    if (a.is_opt_out === true && isBlank(a.opt_out_script)) {
      ctx.addIssue({
        code: "custom",
        path: ["opt_out_script"],
        message: "is required when is_opt_out is true",
      });
    }
    if (a.is_wait_start_speech === true && a.type === "inbound") {
      ctx.addIssue({
        code: "custom",
        path: ["is_wait_start_speech"],
        message: "may be enabled only when type is outbound",
      });
    }
  })
  .meta({ id: "AssistantCreate", description: "Create assistant request (spec 4.2)." });

export type AssistantCreate = z.input<typeof AssistantCreate>;

/** `fillers` comes as an array or, in the spec's samples, as one string. */
const looseFillers = z
  .union([z.array(z.string()), z.string(), z.null()])
  .optional()
  .transform((v) => {
    if (v === null || v === undefined) return undefined;
    if (Array.isArray(v)) return v;
    return v
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  });

/** An assistant as returned (spec 2.2), read tolerantly. */
export const Assistant = z
  .looseObject({
    ...recordId,
    type: looseText(),
    language: looseText(),
    name: looseText(),
    company_name: looseText(),
    accent: looseText(),
    actions: z.array(z.looseObject({})).nullish(),
    goal: looseText(),
    start_speech: looseText(),
    voice_id: looseText(),
    voice_name: looseText(),
    automation_hook: looseText(),
    script: looseText(),
    knowledge_base_Id: looseText(),
    maximum_time_per_call: looseNumber(),
    is_recording: looseFlag(),
    is_voice_note: looseFlag(),
    voice_note: looseText(),
    ai_model_id: looseText(),
    sentiment: z.looseObject({}).nullish(),
    is_back_sound: looseFlag(),
    voice_speed: looseNumber(),
    is_filler: looseFlag(),
    fillers: looseFillers,
    assistant_image: looseText(),
    ai_modal: looseText(),
    is_sensitivity: looseFlag(),
    sensitivity: looseNumber(),
    temperature: looseNumber(),
    is_opt_out: looseFlag(),
    opt_out_script: looseText(),
    is_wait_start_speech: looseFlag(),
    utterance_length: looseNumber(),
    meeting_note_prompt: looseText(),
    call_outcome_prompt: looseText(),
  })
  .transform(withNormalizedId)
  .meta({ id: "Assistant", description: "Assistant record (spec 2.2)." });

export type Assistant = z.output<typeof Assistant>;
