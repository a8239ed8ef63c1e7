import { assistantDefaults } from "./handlers.ts";
import type { Store } from "./store.ts";

/** Fixed ids of the demo records, so jobs/example-leads.yaml runs against the embedded simulator. */
export const DEMO_ASSISTANT = { id: "ast_demo", name: "Demo assistant" } as const;
export const DEMO_DIALER = { id: "dlr_demo", name: "Demo line" } as const;

/** Adds a demo assistant and dialer unless they are there already (a state file keeps them). */
export function seedDemoRecords(store: Store, imageBaseUrl: string): void {
  const has = (collection: "assistants" | "dialers", id: string) =>
    store.list(collection).some((r) => r.id === id);
  if (!has("assistants", DEMO_ASSISTANT.id)) {
    store.add("assistants", {
      id: DEMO_ASSISTANT.id,
      fields: {
        ...assistantDefaults(imageBaseUrl),
        name: DEMO_ASSISTANT.name,
        company_name: "Example Co",
        accent: "American",
        goal: "Book a demo",
        start_speech: "Hi, this is the demo assistant of Example Co.",
        voice_id: "voice-demo",
        voice_name: "Demo",
        script: "Introduce Example Co and offer a demo.",
        maximum_time_per_call: 5,
        is_voice_note: false,
        ai_model_id: "model-demo",
        sentiment: {
          general_prompt: "Analyse the call.",
          positive_prompt: "Positive when the customer is happy.",
          negative_prompt: "Negative when the customer complains.",
          neutral_prompt: "Neutral otherwise.",
        },
        ai_modal: "modal-demo",
        meeting_note_prompt: "Summarise the meeting.",
        call_outcome_prompt: "Summarise the outcome.",
      },
    });
  }
  if (!has("dialers", DEMO_DIALER.id)) {
    store.add("dialers", {
      id: DEMO_DIALER.id,
      fields: {
        dialer_type: "provider_a",
        name: DEMO_DIALER.name,
        phone_number: "+14155550100",
        sid: "AC-demo",
        auth_token: "demo-token-not-a-secret",
      },
    });
  }
}
