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
  /** The segment's contact it was drawn from (absent in old state files). */
  contactId?: string;
  /** When that contact was deleted from the segment after the start (`live` mode reads it). */
  withdrawnAt?: number;
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
  /** Changes applied so far: each change's number in the journal (absent from old state files). */
  changes?: number;
  dialers: StoredRecord[];
  assistants: StoredRecord[];
  segments: StoredRecord[];
  contacts: StoredContact[];
  campaigns: StoredCampaign[];
  playgroundCalls: StoredRecord[];
  knowledgeBases: StoredRecord[];
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type Collection = Exclude<keyof StoreData, "instance" | "counter" | "changes">;

export const emptyStoreData = (): StoreData => ({
  // Distinct per simulator so ids never repeat across restarts (a worker may remember old ids).
  instance: randomBytes(3).toString("hex"),
  counter: 0,
  changes: 0,
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

/**
 * One change to the data, as the journal keeps it: `seq` numbers changes from the first, so that a
 * replay skips what a snapshot already holds. A campaign's start names the campaign only: its
 * audience follows from the data at that point and the seed (`audienceOf` in handlers.ts).
 */
export type Change = { seq: number } & (
  | { op: "add"; collection: Collection; record: StoredRecord; counter: number }
  | { op: "update"; collection: Collection; id: string; fields: Fields }
  | { op: "remove"; collection: Collection; id: string }
  | { op: "start"; id: string }
  | { op: "withdraw"; id: string; contactId: string; at: number }
);

/** Draws the audience of a campaign that starts now. */
export type AudienceOf = (campaign: StoredCampaign) => AudienceMember[];

/**
 * Indexed access over StoreData. Records keep insertion order, as list operations return them.
 * Every change goes through a method here and is told to `onChange`, which journals it.
 */
export class Store {
  private readonly byId = new Map<string, StoredRecord>();
  private readonly contactsBySegment = new Map<string, StoredContact[]>();
  /** Campaigns not started, in creation order, and no start earlier than `earliestStart`: a request checks one number, not every campaign. */
  private readonly unstarted = new Set<StoredCampaign>();
  private earliestStart = Number.POSITIVE_INFINITY;
  onChange: ((change: Change) => void) | undefined;

  constructor(readonly data: StoreData = emptyStoreData()) {
    data.changes ??= 0;
    for (const collection of Object.keys(PREFIX) as Collection[]) {
      for (const record of data[collection]) this.index(collection, record);
    }
  }

  /** Number of the last change applied. */
  get seq(): number {
    return this.data.changes ?? 0;
  }

  newId(collection: Collection): string {
    this.data.counter += 1;
    return `${PREFIX[collection]}_${this.data.instance}-${this.data.counter.toString(36).padStart(4, "0")}`;
  }

  add<R extends StoredRecord>(collection: Collection, record: R): R {
    (this.data[collection] as StoredRecord[]).push(record);
    this.index(collection, record);
    this.changed({ op: "add", collection, record, counter: this.data.counter });
    return record;
  }

  /** Replaces a record's fields. */
  update(collection: Collection, id: string, fields: Fields): void {
    this.get(collection, id).fields = fields;
    this.changed({ op: "update", collection, id, fields });
  }

  /** Starts a campaign with its audience. */
  start(campaign: StoredCampaign, audience: AudienceMember[]): void {
    campaign.audience = audience;
    this.unstarted.delete(campaign);
    this.changed({ op: "start", id: campaign.id });
  }

  /** Starts, in creation order, every campaign not started whose start is at or before `now`. */
  startDue(now: number, audienceOf: AudienceOf): void {
    if (now < this.earliestStart) return;
    let earliest = Number.POSITIVE_INFINITY;
    for (const campaign of [...this.unstarted]) {
      if (campaign.startAt <= now) this.start(campaign, audienceOf(campaign));
      else earliest = Math.min(earliest, campaign.startAt);
    }
    this.earliestStart = earliest;
  }

  /** A started campaign's contact left its segment at `at`: its audience member remembers when. */
  withdraw(campaign: StoredCampaign, contactId: string, at: number): void {
    const member = campaign.audience?.find((m) => m.contactId === contactId);
    if (!member || member.withdrawnAt !== undefined) return;
    member.withdrawnAt = at;
    this.changed({ op: "withdraw", id: campaign.id, contactId, at });
  }

  /**
   * Applies a change read back from the journal: false when the data holds it already (a snapshot
   * taken after it). A change missing in between means the journal is not this data's.
   */
  replay(change: Change, audienceOf: AudienceOf): boolean {
    if (change.seq <= this.seq) return false;
    if (change.seq !== this.seq + 1) {
      throw new Error(`change ${change.seq} follows change ${this.seq}: the journal has a gap`);
    }
    switch (change.op) {
      case "add":
        this.data.counter = Math.max(this.data.counter, change.counter);
        this.add(change.collection, change.record);
        break;
      case "update":
        this.update(change.collection, change.id, change.fields);
        break;
      case "remove":
        this.remove(change.collection, change.id);
        break;
      case "start": {
        const campaign = this.get<StoredCampaign>("campaigns", change.id);
        this.start(campaign, audienceOf(campaign));
        break;
      }
      case "withdraw":
        this.withdraw(this.get<StoredCampaign>("campaigns", change.id), change.contactId, change.at);
        break;
    }
    return true;
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
    this.unstarted.delete(record as StoredCampaign);
    if (collection === "contacts") {
      const peers = this.contactsBySegment.get((record as StoredContact).segmentId) ?? [];
      peers.splice(peers.indexOf(record as StoredContact), 1);
    }
    this.changed({ op: "remove", collection, id });
  }

  list<R extends StoredRecord = StoredRecord>(collection: Collection): readonly R[] {
    return this.data[collection] as R[];
  }

  contactsOf(segmentId: string): readonly StoredContact[] {
    return this.contactsBySegment.get(segmentId) ?? [];
  }

  private changed(change: DistributiveOmit<Change, "seq">): void {
    this.data.changes = this.seq + 1;
    this.onChange?.({ ...change, seq: this.seq } as Change);
  }

  private index(collection: Collection, record: StoredRecord): void {
    this.byId.set(record.id, record);
    const campaign = record as StoredCampaign;
    if (collection === "campaigns" && !campaign.audience) {
      this.unstarted.add(campaign);
      this.earliestStart = Math.min(this.earliestStart, campaign.startAt);
    }
    if (collection === "contacts") {
      const contact = record as StoredContact;
      const peers = this.contactsBySegment.get(contact.segmentId) ?? [];
      peers.push(contact);
      this.contactsBySegment.set(contact.segmentId, peers);
    }
  }
}
