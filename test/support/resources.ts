import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { OPT_OUT_SCRIPT } from "../../src/api/schemas/index.ts";

/** Resource files for tests: a knowledge base, an assistant naming it, and a dialer with a secret. */
export const kbYaml = (name = "faq", answer = "Yes.") => `kind: knowledgeBase
name: ${name}
spec:
  language: en
  data:
    - { question: Can I move it?, answer: ${answer} }
`;

export const assistantYaml = (name = "bot", goal = "Confirm the appointment.", kb = "faq") => `kind: assistant
name: ${name}
spec:
  company_name: Example Co
  accent: American
  voice_id: v1
  voice_name: Ava
  ai_modal: standard
  ai_model_id: m1
  goal: ${goal}
  start_speech: Hello.
  script: Confirm it.
  ${kb ? `knowledge_base_Id: { resource: ${kb} }` : ""}
  maximum_time_per_call: 5
  is_voice_note: false
  fillers: [umm]
  voice_speed: 1.2
  actions:
    - { type: scheduleMeeting, meetingType: openBooking, startDate: "2026-12-01", startTime: "09:00 AM", endTime: "05:30 PM", bookingDays: "Monday,Tuesday", length: 30 }
  is_opt_out: true
  opt_out_script: ${OPT_OUT_SCRIPT}
  sentiment: { general_prompt: g, positive_prompt: p, negative_prompt: n, neutral_prompt: u }
  meeting_note_prompt: Notes.
  call_outcome_prompt: Outcome.
`;

export const dialerYaml = (name = "line", sid = "AC1") => `kind: dialer
name: ${name}
spec:
  dialer_type: provider_a
  phone_number: "+14155550100"
  sid: ${sid}
  auth_token: { env: TEST_DIALER_TOKEN }
`;

/** Writes the documents as one multi-document file (replacing what the folder held under that name). */
export function writeResources(dir: string, docs: string[], file = "all.yaml"): void {
  writeFileSync(join(dir, file), docs.join("---\n"));
}
