import type { AssistantCreate, DialerCreate, KnowledgeBaseCreate } from "../../src/api/index.ts";
import type { CampaignInfo, ResultRecord, StartCheckResult } from "../../src/pipeline/model/results.ts";

/** Secrets used by tests; each must never show up in a log line or an error message. */
export const API_KEY = "vcs-test-key-3f9a1c2b7d";
export const DIALER_TOKEN = "dialer-token-SECRET-91b2";
export const SIP_PASSWORD = "sip-password-SECRET-4c7e";

export const validDialer = (over: Partial<DialerCreate> = {}): DialerCreate => ({
  dialer_type: "provider_a",
  name: "Main line",
  phone_number: "+14155550100",
  sid: "AC0123456789",
  auth_token: DIALER_TOKEN,
  ...over,
});

export const validSipDialer = (over: Partial<DialerCreate> = {}): DialerCreate => ({
  dialer_type: "sip",
  name: "SIP trunk",
  phone_number: "+4930123456",
  sid: "trunk-1",
  auth_token: DIALER_TOKEN,
  sip_termination_uri: "sip:trunk.example.com",
  sip_trunk_user_name: "trunk-user",
  sip_trunk_password: SIP_PASSWORD,
  ...over,
});

export const validAction = () => ({
  type: "scheduleMeeting" as const,
  meetingType: "openBooking" as const,
  startDate: "2026-12-01",
  startTime: "09:00 AM",
  endTime: "05:30 PM",
  bookingDays: "Monday,Tuesday,Wednesday",
  timezone: "Europe/Berlin",
  length: 30,
});

export const validAssistant = (over: Partial<AssistantCreate> = {}): AssistantCreate => ({
  name: "Ava",
  company_name: "Acme",
  accent: "American",
  goal: "Book a demo",
  start_speech: "Hi, this is Ava from Acme.",
  voice_id: "voice-1",
  voice_name: "Ava",
  script: "Introduce Acme and offer a demo.",
  maximum_time_per_call: 5,
  is_voice_note: false,
  ai_model_id: "model-1",
  sentiment: {
    general_prompt: "Analyse the call.",
    positive_prompt: "Positive when the customer is happy.",
    negative_prompt: "Negative when the customer complains.",
    neutral_prompt: "Neutral when only informational.",
  },
  ai_modal: "modal-1",
  meeting_note_prompt: "Summarise the meeting.",
  call_outcome_prompt: "Summarise the outcome.",
  ...over,
});

export const validKnowledgeBase = (over: Partial<KnowledgeBaseCreate> = {}): KnowledgeBaseCreate => ({
  title: "FAQ",
  language: "en",
  data: [{ question: "What is Acme?", answer: "A company." }],
  ...over,
});

/** A campaign as the worker registers it; tests override what they look at. */
export const campaignInfo = (over: Partial<CampaignInfo> = {}): CampaignInfo => ({
  id: "cmp_1",
  name: "cmp_1",
  job: "j",
  file: "f.csv",
  sha256: "0".repeat(64),
  gen: 1,
  segmentId: "seg_1",
  scheduledAt: new Date().toISOString(),
  state: "active",
  attempt: 0,
  followUps: [],
  ...over,
});

/** A result record, queued and empty unless overridden. */
export const resultRecord = (phone: string, over: Partial<ResultRecord> = {}): ResultRecord => ({
  phone,
  first_name: "",
  last_name: "",
  status: "queued",
  durationSec: 0,
  sentiment: "",
  transferred: false,
  meeting: false,
  messageSent: false,
  error: "",
  recordingUrl: "",
  transcript: "",
  ...over,
});

/** A check before the start that found two copies of the name and changed nothing yet, with `over`. */
export const startCheckResult = (over: Partial<StartCheckResult> = {}): StartCheckResult => ({
  at: "2026-11-23T15:59:55Z",
  campaignsListed: 2,
  contactsListed: 20,
  phonesListed: 20,
  duplicatesRemoved: 0,
  withdrawn: 0,
  campaignsRepaired: 0,
  ...over,
});
