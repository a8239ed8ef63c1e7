import { describe, expect, it } from "vitest";
import { type OperationName, operations, RequestValidationError } from "../../src/api/index.ts";
import {
  API_KEY,
  validAction,
  validAssistant,
  validDialer,
  validKnowledgeBase,
} from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

type Case = [label: string, op: OperationName, body: unknown, path: string, message: RegExp];

const withAction = (over: Record<string, unknown>) =>
  validAssistant({ actions: [{ ...validAction(), ...over }] as never });
const without = <T extends object>(o: T, key: keyof T) => {
  const copy = { ...o };
  delete copy[key];
  return copy;
};
const contact = { phone: "+14155550123", first_name: "Ana" };
const campaign = { campaigns_name: "c", assistant_id: "a", contacts_id: "s", dialer_id: "d" };
const playground = { first_name: "Sam", phone_number: ["+14155550199"], assistant_id: "a", dialer_id: "d" };

/** Every rule of the spec that a request can break, with the field and the reason it must name. */
const cases: Case[] = [
  [
    "unknown dialer_type",
    "dialers.create",
    validDialer({ dialer_type: "provider_c" as never }),
    "dialer_type",
    /one of provider_a, provider_b, sip/,
  ],
  ["missing dialer name", "dialers.create", without(validDialer(), "name"), "name", /is required/],
  [
    "dialer phone not E.164",
    "dialers.create",
    validDialer({ phone_number: "555-1234" }),
    "phone_number",
    /E\.164/,
  ],
  ["missing sid", "dialers.create", without(validDialer(), "sid"), "sid", /is required/],
  [
    "provider_a without auth_token",
    "dialers.create",
    without(validDialer(), "auth_token"),
    "auth_token",
    /required when dialer_type is provider_a/,
  ],
  [
    "sip without termination URI",
    "dialers.create",
    validDialer({ dialer_type: "sip" }),
    "sip_termination_uri",
    /required when dialer_type is sip/,
  ],
  [
    "sip field on a provider dialer",
    "dialers.create",
    validDialer({ sip_trunk_user_name: "u" }),
    "sip_trunk_user_name",
    /only when dialer_type is sip/,
  ],
  [
    "auth_token not a string",
    "dialers.create",
    validDialer({ auth_token: 5 as never }),
    "auth_token",
    /must be a string/,
  ],
  ["unknown dialer field", "dialers.create", { ...validDialer(), colour: "red" }, "", /unknown field colour/],
  ["empty dialer update", "dialers.update", {}, "", /at least one field/],
  [
    "assistant type",
    "assistants.create",
    validAssistant({ type: "sideways" as never }),
    "type",
    /inbound or outbound/,
  ],
  [
    "assistant language",
    "assistants.create",
    validAssistant({ language: "xx" as never }),
    "language",
    /one of en, de, hi/,
  ],
  [
    "voice_speed out of set",
    "assistants.create",
    validAssistant({ voice_speed: 2.5 }),
    "voice_speed",
    /one of 1, 1\.1/,
  ],
  [
    "voice_speed off step",
    "assistants.create",
    validAssistant({ voice_speed: 1.05 }),
    "voice_speed",
    /one of 1, 1\.1/,
  ],
  [
    "sensitivity off step",
    "assistants.create",
    validAssistant({ sensitivity: 650 }),
    "sensitivity",
    /one of 600, 700/,
  ],
  ["sensitivity too high", "assistants.create", validAssistant({ sensitivity: 2100 }), "sensitivity", /2000/],
  [
    "temperature too low",
    "assistants.create",
    validAssistant({ temperature: 0.6 }),
    "temperature",
    /one of 0\.7, 0\.8/,
  ],
  [
    "temperature too high",
    "assistants.create",
    validAssistant({ temperature: 2.1 }),
    "temperature",
    /one of 0\.7/,
  ],
  [
    "utterance_length 0",
    "assistants.create",
    validAssistant({ utterance_length: 0 }),
    "utterance_length",
    /one of 1, 2/,
  ],
  [
    "utterance_length 11",
    "assistants.create",
    validAssistant({ utterance_length: 11 }),
    "utterance_length",
    /10/,
  ],
  [
    "utterance_length not whole",
    "assistants.create",
    validAssistant({ utterance_length: 2.5 }),
    "utterance_length",
    /one of 1/,
  ],
  [
    "filler word",
    "assistants.create",
    validAssistant({ fillers: ["hmm" as never] }),
    "fillers[0]",
    /umm or uhh/,
  ],
  [
    "assistant_image not one of four",
    "assistants.create",
    validAssistant({ assistant_image: "https://img.example.com/assistant_profile/2.jpeg" }),
    "assistant_image",
    /n in 1, 3, 4, 5/,
  ],
  [
    "assistant_image not a URL",
    "assistants.create",
    validAssistant({ assistant_image: "profile-1" }),
    "assistant_image",
    /URL/,
  ],
  ["action type", "assistants.create", withAction({ type: "call" }), "actions[0].type", /scheduleMeeting/],
  [
    "action meetingType",
    "assistants.create",
    withAction({ meetingType: "closed" }),
    "actions[0].meetingType",
    /openBooking/,
  ],
  [
    "action startDate format",
    "assistants.create",
    withAction({ startDate: "01/12/2026" }),
    "actions[0].startDate",
    /YYYY-MM-DD/,
  ],
  [
    "action startDate month 13",
    "assistants.create",
    withAction({ startDate: "2026-13-01" }),
    "actions[0].startDate",
    /YYYY-MM-DD/,
  ],
  [
    "action startTime 24h",
    "assistants.create",
    withAction({ startTime: "13:00" }),
    "actions[0].startTime",
    /hh:mm AM/,
  ],
  [
    "action endTime hour 13",
    "assistants.create",
    withAction({ endTime: "13:00 PM" }),
    "actions[0].endTime",
    /hh:mm AM/,
  ],
  [
    "action window backwards",
    "assistants.create",
    withAction({ startTime: "05:00 PM", endTime: "09:00 AM" }),
    "actions[0].endTime",
    /later than startTime/,
  ],
  [
    "action bookingDays empty items",
    "assistants.create",
    withAction({ bookingDays: "Monday,,Friday" }),
    "actions[0].bookingDays",
    /comma-separated/,
  ],
  [
    "action without bookingDays",
    "assistants.create",
    withAction({ bookingDays: undefined }),
    "actions[0].bookingDays",
    /is required/,
  ],
  [
    "voice note missing",
    "assistants.create",
    validAssistant({ is_voice_note: true }),
    "voice_note",
    /required when is_voice_note/,
  ],
  [
    "voice note not a string",
    "assistants.create",
    validAssistant({ is_voice_note: true, voice_note: 5 as never }),
    "voice_note",
    /must be a string/,
  ],
  [
    "opt-out script missing",
    "assistants.create",
    validAssistant({ is_opt_out: true }),
    "opt_out_script",
    /required when is_opt_out/,
  ],
  [
    "wait start speech inbound",
    "assistants.create",
    validAssistant({ type: "inbound", is_wait_start_speech: true }),
    "is_wait_start_speech",
    /only when type is outbound/,
  ],
  [
    "maximum_time_per_call 0",
    "assistants.create",
    validAssistant({ maximum_time_per_call: 0 }),
    "maximum_time_per_call",
    /positive/,
  ],
  [
    "maximum_time_per_call text",
    "assistants.create",
    validAssistant({ maximum_time_per_call: "5" as never }),
    "maximum_time_per_call",
    /number of minutes/,
  ],
  [
    "automation_hook not a URL",
    "assistants.create",
    validAssistant({ automation_hook: "not a url" }),
    "automation_hook",
    /URL/,
  ],
  [
    "sentiment prompt missing",
    "assistants.create",
    validAssistant({
      sentiment: { general_prompt: "g", negative_prompt: "n", neutral_prompt: "u" } as never,
    }),
    "sentiment.positive_prompt",
    /is required/,
  ],
  [
    "ai_model_id missing",
    "assistants.create",
    without(validAssistant(), "ai_model_id"),
    "ai_model_id",
    /is required/,
  ],
  ["segment name empty", "segments.create", { name: "  " }, "name", /must not be empty/],
  ["segment name missing", "segments.update", { description: "d" }, "name", /is required/],
  ["contact without phone", "contacts.create", { first_name: "Ana" }, "phone", /is required/],
  [
    "contact phone not E.164",
    "contacts.create",
    { ...contact, phone: "0044 20 7946 0958" },
    "phone",
    /E\.164/,
  ],
  ["contact e-mail", "contacts.create", { ...contact, email: "ana at example" }, "email", /e-mail address/],
  ["contact unknown field", "contacts.create", { ...contact, mobile: "+1" }, "", /unknown field mobile/],
  ["contact update phone", "contacts.update", { phone: "12" }, "phone", /E\.164/],
  [
    "scheduled_at words",
    "campaigns.create",
    { ...campaign, scheduled_at: "tomorrow" },
    "scheduled_at",
    /ISO 8601/,
  ],
  [
    "scheduled_at without zone",
    "campaigns.create",
    { ...campaign, scheduled_at: "2026-12-01T09:00:00" },
    "scheduled_at",
    /time zone/,
  ],
  [
    "is_automation text",
    "campaigns.create",
    { ...campaign, is_automation: "yes" },
    "is_automation",
    /true or false/,
  ],
  [
    "campaign without segment",
    "campaigns.create",
    without(campaign, "contacts_id"),
    "contacts_id",
    /is required/,
  ],
  [
    "playground phone not array",
    "playground.call",
    { ...playground, phone_number: "+14155550199" },
    "phone_number",
    /array of phone numbers/,
  ],
  [
    "playground phones empty",
    "playground.call",
    { ...playground, phone_number: [] },
    "phone_number",
    /must not be empty/,
  ],
  [
    "playground phone format",
    "playground.call",
    { ...playground, phone_number: ["123"] },
    "phone_number[0]",
    /E\.164/,
  ],
  [
    "knowledge base language",
    "knowledgeBases.create",
    validKnowledgeBase({ language: "xx" as never }),
    "language",
    /one of en/,
  ],
  ["knowledge base empty", "knowledgeBases.create", validKnowledgeBase({ data: [] }), "data", /at least one/],
  [
    "knowledge base empty answer",
    "knowledgeBases.create",
    validKnowledgeBase({ data: [{ question: "q", answer: "" }] }),
    "data[0].answer",
    /must not be empty/,
  ],
];

describe("request validation", () => {
  const t = useSimulator();

  describe.each(cases)("%s", (_label, name, body, path, message) => {
    const op = operations[name];
    const id = op.id ? "some-id" : undefined;

    it("is rejected by the client before anything is sent", async () => {
      const before = t.sim.stats.total;
      const error = await t.client.request(name, { id, body }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      const issue = (error as RequestValidationError).issues.find((i) => i.path === path);
      expect(issue?.message, `issues: ${JSON.stringify((error as RequestValidationError).issues)}`).toMatch(
        message,
      );
      expect((error as Error).message).toContain(name);
      expect(t.sim.stats.total).toBe(before);
    });

    it("is rejected by the simulator when sent raw: 400 with the Error object naming the field", async () => {
      const url = `${t.sim.url}${op.path}${id ? `?id=${id}` : ""}`;
      const response = await fetch(url, {
        method: op.method,
        headers: { "x-api-key": API_KEY, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(400);
      const error = (await response.json()) as { error: number; message: string };
      expect(error.error).toBe(400);
      expect(error.message).toContain(path ? `${path} ` : "");
      expect(error.message).toMatch(message);
    });
  });

  it("names every bad field at once", async () => {
    const error = (await t.client.assistants
      .create(validAssistant({ voice_speed: 3, temperature: 5, language: "xx" as never }))
      .catch((e: unknown) => e)) as RequestValidationError;
    expect(error.issues.map((i) => i.path).sort()).toEqual(["language", "temperature", "voice_speed"]);
  });

  it("an operation with ?id= needs the id", async () => {
    await expect(t.client.contacts.list("")).rejects.toThrow(/id is required: the segment identifier/);
    const raw = await fetch(`${t.sim.url}/segment/contact/list`, {
      method: "POST",
      headers: { "x-api-key": API_KEY },
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      error: 400,
      message: "query parameter id is required: the segment identifier",
    });
  });

  it("the simulator answers a body that is not JSON with 400", async () => {
    const raw = await fetch(`${t.sim.url}/segment/create`, {
      method: "POST",
      headers: { "x-api-key": API_KEY, "content-type": "application/json" },
      body: "{name:",
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: 400, message: "the request body is not valid JSON" });
  });

  it("the simulator accepts only the fixed opt-out text", async () => {
    const { OPT_OUT_SCRIPT } = await import("../../src/api/index.ts");
    await expect(
      t.client.assistants.create(validAssistant({ is_opt_out: true, opt_out_script: "Say bye." })),
    ).rejects.toThrow(/opt_out_script must be the service's fixed opt-out instruction text/);
    const ok = await t.client.assistants.create(
      validAssistant({ is_opt_out: true, opt_out_script: OPT_OUT_SCRIPT }),
    );
    expect(ok.is_opt_out).toBe(true);
  });
});
