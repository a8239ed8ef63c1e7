import { formatIssues } from "../api/errors/index.ts";
import type { OperationName } from "../api/operations.ts";
import { DialerCreate, OPT_OUT_SCRIPT } from "../api/schemas/index.ts";
import { toFieldIssues } from "../api/zod-issues.ts";
import {
  audienceEntryAt,
  type CallModel,
  type CampaignSegmentMode,
  isDialled,
  planCall,
} from "./call-plan.ts";
import type { SimClock } from "./clock.ts";
import { outcomesFor, reportedStatus } from "./outcome-mix.ts";
import { type PhoneSpelling, spellPhone } from "./phone-spelling.ts";
import { SimError } from "./sim-error.ts";
import type { Fields, Store, StoredCampaign, StoredContact, StoredRecord } from "./store.ts";

export interface HandlerContext {
  store: Store;
  clock: SimClock;
  seed: number;
  callModel: CallModel;
  /** Base of the assistant profile images (`<image_base_url>` of the spec). */
  imageBaseUrl: string;
  recordingBaseUrl: string;
  /** How phones read back are written (audiences, contact lists): see phone-spelling.ts. */
  phoneSpelling?: PhoneSpelling;
  /** Whether a started campaign still reads its segment (`live`) or not (`fixed`, the default). */
  campaignSegment?: CampaignSegmentMode;
}

export interface HandlerInput {
  id: string | undefined;
  body: Fields | undefined;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
}

type Handler = (ctx: HandlerContext, input: HandlerInput) => HandlerResult;

const MASK = "********";
const ok = (body: unknown): HandlerResult => ({ status: 200, body });
const noContent: HandlerResult = { status: 204 };

/** Dialer as returned: credentials masked, never echoed. */
function dialerView(d: StoredRecord) {
  const view: Fields = { id: d.id, ...d.fields };
  for (const secret of ["auth_token", "sip_trunk_password"]) if (view[secret]) view[secret] = MASK;
  return view;
}

/** Values the simulator fills in for Assistant fields the create request may leave out. */
export function assistantDefaults(imageBaseUrl: string): Fields {
  return {
    type: "outbound",
    language: "en",
    actions: [],
    automation_hook: "",
    knowledge_base_Id: "",
    is_recording: false,
    voice_note: "",
    is_back_sound: false,
    voice_speed: 1,
    is_filler: false,
    fillers: [],
    assistant_image: `${imageBaseUrl}/assistant_profile/1.jpeg`,
    is_sensitivity: false,
    sensitivity: 1000,
    temperature: 1,
    is_opt_out: false,
    opt_out_script: "",
    is_wait_start_speech: false,
    utterance_length: 5,
  };
}

/** The spec's sample responses show `fillers` as one string: the simulator answers that way. */
const assistantView = (a: StoredRecord) => ({
  id: a.id,
  ...a.fields,
  fillers: ((a.fields.fillers as string[] | undefined) ?? []).join(","),
});

const plainView = (r: StoredRecord) => ({ id: r.id, ...r.fields });

function campaignView(c: StoredCampaign) {
  return {
    id: c.id,
    ...c.fields,
    started_at: new Date(c.startAt).toISOString(),
    is_started: c.audience !== undefined,
  };
}

function contactListView(c: StoredContact, index: number, spelling: PhoneSpelling) {
  const f = c.fields;
  return {
    id: c.id,
    first_name: f.first_name ?? "",
    last_name: f.last_name ?? "",
    email: f.email ?? "",
    description: f.description ?? "",
    phone: typeof f.phone === "string" ? spellPhone(f.phone, spelling, index) : f.phone,
    sync_by: "api",
  };
}

/** The audience of a campaign starting now: its segment's contacts created by its start, each call planned. */
export function audienceOf(
  ctx: Pick<HandlerContext, "store" | "seed" | "callModel">,
  campaign: StoredCampaign,
) {
  const members = ctx.store.contactsOf(campaign.segmentId).filter((c) => c.createdAt <= campaign.startAt);
  const assistant = ctx.store.list("assistants").find((a) => a.id === campaign.assistantId);
  const dialer = ctx.store.list("dialers").find((d) => d.id === campaign.dialerId);
  const model = {
    ...ctx.callModel,
    outcomes: outcomesFor(
      ctx.callModel,
      { id: campaign.assistantId, name: assistant?.fields.name },
      { id: campaign.dialerId, phone: dialer?.fields.phone_number },
    ),
  };
  return members.map((c, index) => {
    const contact = {
      first_name: c.fields.first_name,
      last_name: c.fields.last_name,
      description: c.fields.description,
      phone: c.fields.phone as string,
    };
    return {
      contact,
      contactId: c.id,
      plan: planCall(ctx.seed, String(campaign.ordinal), index, contact.phone, campaign.startAt, model),
    };
  });
}

/** Starts every campaign whose time has come: its audience is the segment's contacts at that moment. */
export function startDueCampaigns(ctx: HandlerContext): void {
  ctx.store.startDue(ctx.clock.now(), (campaign) => audienceOf(ctx, campaign));
}

export const handlers: Record<OperationName, Handler> = {
  "dialers.create": ({ store }, { body }) =>
    ok(dialerView(store.add("dialers", { id: store.newId("dialers"), fields: { ...body } }))),

  "dialers.update": ({ store }, { id, body }) => {
    const dialer = store.get("dialers", id!);
    const merged = { ...dialer.fields, ...body };
    const check = DialerCreate.safeParse(merged);
    if (!check.success)
      throw new SimError(400, `Invalid dialer after update: ${formatIssues(toFieldIssues(check.error))}`);
    store.update("dialers", dialer.id, merged);
    // Documented as returning an Assistant record; the simulator returns the dialer (docs/spec-gaps.md).
    return ok(dialerView(dialer));
  },

  "assistants.create": ({ store, imageBaseUrl }, { body }) => {
    const fields = { ...assistantDefaults(imageBaseUrl), ...body };
    if (fields.knowledge_base_Id)
      store.get("knowledgeBases", fields.knowledge_base_Id as string, "knowledge_base_Id");
    if (fields.is_opt_out && fields.opt_out_script !== OPT_OUT_SCRIPT) {
      throw new SimError(400, "opt_out_script must be the service's fixed opt-out instruction text");
    }
    return ok(assistantView(store.add("assistants", { id: store.newId("assistants"), fields })));
  },
  "assistants.list": ({ store }) => ok(store.list("assistants").map(assistantView)),
  "assistants.delete": ({ store }, { id }) => {
    store.remove("assistants", id!);
    return noContent;
  },

  "segments.create": ({ store }, { body }) => {
    const fields = { name: body!.name, description: body!.description ?? "" };
    return ok(plainView(store.add("segments", { id: store.newId("segments"), fields })));
  },
  "segments.update": ({ store }, { id, body }) => {
    const segment = store.get("segments", id!);
    store.update("segments", segment.id, {
      name: body!.name,
      description: body!.description ?? segment.fields.description,
    });
    return ok(plainView(segment));
  },
  "segments.list": ({ store }) => ok(store.list("segments").map(plainView)),

  // Duplicate phones are accepted, as nothing in the spec forbids them: that is why the worker
  // keeps a ledger, and why tests can see a duplicate if the worker made one.
  "contacts.create": ({ store, clock }, { id, body }) => {
    const segment = store.get("segments", id!);
    store.add<StoredContact>("contacts", {
      id: store.newId("contacts"),
      segmentId: segment.id,
      createdAt: clock.now(),
      fields: { ...body },
    });
    return ok({ message: "Contact created successfully" });
  },
  "contacts.update": ({ store }, { id, body }) => {
    const contact = store.get("contacts", id!);
    store.update("contacts", contact.id, { ...contact.fields, ...body });
    return ok({ message: "Contact updated successfully" });
  },
  "contacts.list": ({ store, phoneSpelling = "as-given" }, { id }) => {
    const segment = store.get("segments", id!);
    return ok(store.contactsOf(segment.id).map((c, i) => contactListView(c, i, phoneSpelling)));
  },
  "contacts.delete": ({ store, clock }, { id }) => {
    const contact = store.get<StoredContact>("contacts", id!);
    store.remove("contacts", contact.id);
    // Started campaigns of its segment remember when it left (only `live` mode reads it).
    for (const campaign of store.list<StoredCampaign>("campaigns")) {
      if (campaign.audience && campaign.segmentId === contact.segmentId)
        store.withdraw(campaign, contact.id, clock.now());
    }
    return noContent;
  },

  "campaigns.create": (ctx, { body }) => {
    const { store, clock } = ctx;
    const b = body!;
    const assistant = store.get("assistants", b.assistant_id as string, "assistant_id");
    const segment = store.get("segments", b.contacts_id as string, "contacts_id");
    const dialer = store.get("dialers", b.dialer_id as string, "dialer_id");
    const campaign = store.add<StoredCampaign>("campaigns", {
      id: store.newId("campaigns"),
      ordinal: store.list("campaigns").length + 1,
      assistantId: assistant.id,
      segmentId: segment.id,
      dialerId: dialer.id,
      // A time already past means "now": the audience is the segment as it is when the calls start.
      // A time ahead is waited for in real time: the client's check before the start runs first.
      startAt: Math.max(clock.now(), b.scheduled_at ? clock.atReal(Date.parse(b.scheduled_at as string)) : 0),
      fields: {
        campaigns_name: b.campaigns_name,
        assistant_name: assistant.fields.name,
        contact_name: segment.fields.name,
        dialer_name: dialer.fields.name,
        dialer_type: dialer.fields.dialer_type,
        phone_number: dialer.fields.phone_number,
        is_automation: b.is_automation ?? false,
      },
    });
    startDueCampaigns(ctx);
    return ok(campaignView(campaign));
  },
  "campaigns.list": ({ store }) => ok(store.list<StoredCampaign>("campaigns").map(campaignView)),
  "campaigns.audiences": (ctx, { id }) => {
    const { store, clock, recordingBaseUrl, phoneSpelling = "as-given" } = ctx;
    const campaign = store.get<StoredCampaign>("campaigns", id!);
    const now = clock.now();
    const mode = ctx.campaignSegment ?? "fixed";
    // A contact deleted before its turn is never dialled in `live` mode: its entry is left out.
    return ok(
      (campaign.audience ?? []).flatMap(({ contact, plan, withdrawnAt }, index) => {
        if (!isDialled(plan, mode, withdrawnAt)) return [];
        const entry = audienceEntryAt(plan, contact, now, `${recordingBaseUrl}/${campaign.id}/${index}.mp3`);
        return [
          {
            id: `${campaign.id}-${index}`,
            ...entry,
            phone: spellPhone(contact.phone, phoneSpelling, index),
            status: reportedStatus(ctx.callModel.statusNames, String(entry.status)),
          },
        ];
      }),
    );
  },

  "playground.call": ({ store }, { body }) => {
    store.get("assistants", body!.assistant_id as string, "assistant_id");
    store.get("dialers", body!.dialer_id as string, "dialer_id");
    return ok(
      plainView(store.add("playgroundCalls", { id: store.newId("playgroundCalls"), fields: { ...body } })),
    );
  },
  "playground.list": ({ store }) => ok(store.list("playgroundCalls").map(plainView)),

  "knowledgeBases.create": ({ store }, { body }) =>
    ok(plainView(store.add("knowledgeBases", { id: store.newId("knowledgeBases"), fields: { ...body } }))),
  "knowledgeBases.list": ({ store }) => ok(store.list("knowledgeBases").map(plainView)),
  "knowledgeBases.delete": ({ store }, { id }) => {
    store.remove("knowledgeBases", id!);
    return noContent;
  },
};
