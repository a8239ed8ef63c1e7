import { z } from "zod";
import {
  Assistant,
  AssistantCreate,
  AudienceEntry,
  Campaign,
  CampaignCreate,
  Contact,
  ContactCreate,
  ContactUpdate,
  Dialer,
  DialerCreate,
  DialerUpdate,
  KnowledgeBase,
  KnowledgeBaseCreate,
  MessageResponse,
  PlaygroundCall,
  PlaygroundCallCreate,
  Segment,
  SegmentWrite,
} from "./schemas/index.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";
export type Effect = "read" | "create" | "update" | "delete";

/**
 * Sending it twice has the effect of sending it once, so it may be retried after an ambiguous
 * failure. Only creates are not: a second create makes a second record.
 */
export const isIdempotent = (op: { effect: Effect }) => op.effect !== "create";

export interface Operation<
  Req extends z.ZodType | undefined = z.ZodType | undefined,
  Res extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** `resource.action`, the name used in logs, errors and `vcw api`. */
  name: string;
  method: HttpMethod;
  /** Path under the base URL (which ends in `/api/v1`). */
  path: string;
  /** What the `?id=` query parameter identifies, when the operation takes one. */
  id?: string;
  request: Req;
  response: Res;
  /** What it does to the service's state. Not the same as the method: two reads of the spec are POSTs. */
  effect: Effect;
  summary: string;
}

const op = <Req extends z.ZodType | undefined, Res extends z.ZodType | undefined>(o: Operation<Req, Res>) =>
  o;

/** The 20 operations of the spec (section 4), the one table that client, simulator and docs read. */
export const operations = {
  "dialers.create": op({
    name: "dialers.create",
    method: "POST",
    path: "/dialer/create",
    request: DialerCreate,
    response: Dialer,
    effect: "create",
    summary: "Create dialer",
  }),
  "dialers.update": op({
    name: "dialers.update",
    method: "PUT",
    path: "/dialer/update",
    id: "dialer",
    request: DialerUpdate,
    // Documented as returning an Assistant; read as a loose record either way (docs/spec-gaps.md).
    response: Dialer,
    effect: "update",
    summary: "Update dialer",
  }),
  "assistants.create": op({
    name: "assistants.create",
    method: "POST",
    path: "/user/createAssistant",
    request: AssistantCreate,
    response: Assistant,
    effect: "create",
    summary: "Create assistant",
  }),
  "assistants.list": op({
    name: "assistants.list",
    method: "GET",
    path: "/user/listAssistant",
    request: undefined,
    response: z.array(Assistant),
    effect: "read",
    summary: "List assistants",
  }),
  "assistants.delete": op({
    name: "assistants.delete",
    method: "DELETE",
    path: "/user/deleteassistant",
    id: "assistant",
    request: undefined,
    response: undefined,
    effect: "delete",
    summary: "Delete assistant",
  }),
  "segments.create": op({
    name: "segments.create",
    method: "POST",
    path: "/segment/create",
    request: SegmentWrite,
    response: Segment,
    effect: "create",
    summary: "Create segment",
  }),
  "segments.update": op({
    name: "segments.update",
    method: "PUT",
    path: "/segment/update",
    id: "segment",
    request: SegmentWrite,
    response: Segment,
    effect: "update",
    summary: "Update segment",
  }),
  "segments.list": op({
    name: "segments.list",
    method: "GET",
    path: "/segment/list",
    request: undefined,
    response: z.array(Segment),
    effect: "read",
    summary: "List segments",
  }),
  "contacts.create": op({
    name: "contacts.create",
    method: "POST",
    path: "/segment/contact/create",
    id: "segment",
    request: ContactCreate,
    response: MessageResponse,
    effect: "create",
    summary: "Create contact in a segment",
  }),
  "contacts.update": op({
    name: "contacts.update",
    method: "PUT",
    path: "/segment/contact/update",
    id: "contact",
    request: ContactUpdate,
    response: MessageResponse,
    effect: "update",
    summary: "Update contact",
  }),
  "contacts.list": op({
    name: "contacts.list",
    method: "POST",
    path: "/segment/contact/list",
    id: "segment",
    request: undefined,
    response: z.array(Contact),
    effect: "read",
    summary: "List a segment's contacts",
  }),
  "contacts.delete": op({
    name: "contacts.delete",
    method: "DELETE",
    path: "/segment/contact/delete",
    id: "contact",
    request: undefined,
    response: undefined,
    effect: "delete",
    summary: "Delete contact",
  }),
  "campaigns.create": op({
    name: "campaigns.create",
    method: "POST",
    path: "/campaign/create",
    request: CampaignCreate,
    response: Campaign,
    effect: "create",
    summary: "Create campaign",
  }),
  "campaigns.list": op({
    name: "campaigns.list",
    method: "GET",
    path: "/campaign/list",
    request: undefined,
    response: z.array(Campaign),
    effect: "read",
    summary: "List campaigns",
  }),
  "campaigns.audiences": op({
    name: "campaigns.audiences",
    method: "POST",
    path: "/campaign/audiences",
    id: "campaign",
    request: undefined,
    response: z.array(AudienceEntry),
    effect: "read",
    summary: "List a campaign's audiences (per-contact call results)",
  }),
  "playground.call": op({
    name: "playground.call",
    method: "POST",
    path: "/playground/call",
    request: PlaygroundCallCreate,
    response: PlaygroundCall,
    effect: "create",
    summary: "Create playground call",
  }),
  "playground.list": op({
    name: "playground.list",
    method: "GET",
    path: "/playground/list",
    request: undefined,
    response: z.array(PlaygroundCall),
    effect: "read",
    summary: "List playground calls",
  }),
  "knowledgeBases.create": op({
    name: "knowledgeBases.create",
    method: "POST",
    path: "/knowledgeBase/create",
    request: KnowledgeBaseCreate,
    response: KnowledgeBase,
    effect: "create",
    summary: "Create knowledge base",
  }),
  "knowledgeBases.list": op({
    name: "knowledgeBases.list",
    method: "GET",
    path: "/knowledgeBase/list",
    request: undefined,
    response: z.array(KnowledgeBase),
    effect: "read",
    summary: "List knowledge bases",
  }),
  "knowledgeBases.delete": op({
    name: "knowledgeBases.delete",
    method: "DELETE",
    path: "/knowledgeBase/delete",
    id: "knowledge base",
    request: undefined,
    response: undefined,
    effect: "delete",
    summary: "Delete knowledge base",
  }),
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export const operationNames = Object.keys(operations) as OperationName[];

/** What an operation sends: its body type, or never when it has no body. */
export type RequestOf<N extends OperationName> = Operations[N]["request"] extends z.ZodType
  ? z.input<Operations[N]["request"]>
  : never;

/** What an operation resolves to. */
export type ResponseOf<N extends OperationName> = Operations[N]["response"] extends z.ZodType
  ? z.output<Operations[N]["response"]>
  : undefined;
