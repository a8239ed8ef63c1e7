import { randomBytes } from "node:crypto";
import type { CallPlan } from "./call-plan.ts";
import { SimError } from "./sim-error.ts";

export type Fields = Record<string, unknown>;

export interface StoredRecord {
  id: string;
  fields: Fields;
}

export interface StoredContact extends StoredRecord {
  segmentId: string;
  createdAt: number;
}

export interface AudienceMember {
  contact: Fields & { phone: string };
  plan: CallPlan;
}

export interface StoredCampaign extends StoredRecord {
  /** Order of creation; with the seed it decides the calls, whatever the ids. */
  ordinal: number;
  assistantId: string;
  segmentId: string;
  dialerId: string;
  startAt: number;
  /** Set when the campaign starts: the segment's contacts at that moment and how each call goes. */
  audience?: AudienceMember[];
}

/** The simulator's data: plain records, so that it can be written to and read from a file. */
export interface StoreData {
  instance: string;
  counter: number;
  dialers: StoredRecord[];
  assistants: StoredRecord[];
  segments: StoredRecord[];
  contacts: StoredContact[];
  campaigns: StoredCampaign[];
  playgroundCalls: StoredRecord[];
  knowledgeBases: StoredRecord[];
}

export type Collection = Exclude<keyof StoreData, "instance" | "counter">;

export const emptyStoreData = (): StoreData => ({
  // Distinct per simulator so ids never repeat across restarts (a worker may remember old ids).
  instance: randomBytes(3).toString("hex"),
  counter: 0,
  dialers: [],
  assistants: [],
  segments: [],
  contacts: [],
  campaigns: [],
  playgroundCalls: [],
  knowledgeBases: [],
});

const PREFIX: Record<Collection, string> = {
  dialers: "dlr",
  assistants: "ast",
  segments: "seg",
  contacts: "cnt",
  campaigns: "cmp",
  playgroundCalls: "pgc",
  knowledgeBases: "kb",
};

const LABEL: Record<Collection, string> = {
  dialers: "dialer",
  assistants: "assistant",
  segments: "segment",
  contacts: "contact",
  campaigns: "campaign",
  playgroundCalls: "playground call",
  knowledgeBases: "knowledge base",
};

/** Indexed access over StoreData. Records keep insertion order, as list operations return them. */
export class Store {
  private readonly byId = new Map<string, StoredRecord>();
  private readonly contactsBySegment = new Map<string, StoredContact[]>();

  constructor(readonly data: StoreData = emptyStoreData()) {
    for (const collection of Object.keys(PREFIX) as Collection[]) {
      for (const record of data[collection]) this.index(collection, record);
    }
  }

  newId(collection: Collection): string {
    this.data.counter += 1;
    return `${PREFIX[collection]}_${this.data.instance}-${this.data.counter.toString(36).padStart(4, "0")}`;
  }

  add<R extends StoredRecord>(collection: Collection, record: R): R {
    (this.data[collection] as StoredRecord[]).push(record);
    this.index(collection, record);
    return record;
  }

  /** The record, or a 404 naming what was looked for (`field` says where the id came from). */
  get<R extends StoredRecord = StoredRecord>(collection: Collection, id: string, field = "id"): R {
    const record = this.byId.get(id);
    if (!record?.id.startsWith(`${PREFIX[collection]}_`)) {
      throw new SimError(404, `${field}: no ${LABEL[collection]} with id ${id}`);
    }
    return record as R;
  }

  remove(collection: Collection, id: string): void {
    const record = this.get(collection, id);
    const list = this.data[collection] as StoredRecord[];
    list.splice(list.indexOf(record), 1);
    this.byId.delete(id);
    if (collection === "contacts") {
      const peers = this.contactsBySegment.get((record as StoredContact).segmentId) ?? [];
      peers.splice(peers.indexOf(record as StoredContact), 1);
    }
  }

  list<R extends StoredRecord = StoredRecord>(collection: Collection): readonly R[] {
    return this.data[collection] as R[];
  }

  contactsOf(segmentId: string): readonly StoredContact[] {
    return this.contactsBySegment.get(segmentId) ?? [];
  }

  private index(collection: Collection, record: StoredRecord): void {
    this.byId.set(record.id, record);
    if (collection === "contacts") {
      const contact = record as StoredContact;
      const peers = this.contactsBySegment.get(contact.segmentId) ?? [];
      peers.push(contact);
      this.contactsBySegment.set(contact.segmentId, peers);
    }
  }
}
