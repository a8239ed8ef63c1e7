import type { CountryCode } from "libphonenumber-js/max";
import type { Client } from "../../api/client.ts";
import { NotFoundError, OwnershipLostError } from "../../api/errors/index.ts";
import type { Contact, ContactCreate } from "../../api/schemas/index.ts";
import type { SendFence } from "../../api/send-fence.ts";
import { failpoint } from "../../lib/failpoint.ts";
import { e164OfServicePhone } from "../../lib/phone-e164.ts";

/** One contact as the service lists it, its phone read as E.164 (or as written when it is none). */
export interface ListedContact {
  phone: string;
  id: string;
  listed: Contact;
}

/**
 * A segment as the service lists it, read once: every contact with an id and a phone, and the
 * copies of each phone in listing order. What vcw counts and repairs is read from here.
 */
export interface SegmentListing {
  contacts: ListedContact[];
  byPhone: Map<string, ListedContact[]>;
}

export async function listSegment(
  client: Client,
  segmentId: string,
  country?: CountryCode,
): Promise<SegmentListing> {
  return listingOf(await client.contacts.list(segmentId), country);
}

/** Pure: the listing of `listed`. */
export function listingOf(listed: readonly Contact[], country?: CountryCode): SegmentListing {
  const contacts: ListedContact[] = [];
  const byPhone = new Map<string, ListedContact[]>();
  for (const c of listed) {
    if (!c.phone || !c.id) continue;
    const contact = { phone: e164OfServicePhone(c.phone, country) ?? c.phone, id: c.id, listed: c };
    contacts.push(contact);
    byPhone.set(contact.phone, [...(byPhone.get(contact.phone) ?? []), contact]);
  }
  return { contacts, byPhone };
}

/** The copies of a phone after its first, in listing order: what a dedupe deletes. */
export const extraCopies = (l: SegmentListing): ListedContact[] =>
  [...l.byPhone.values()].flatMap((copies) => copies.slice(1));

/** A listed contact as a create sends it again (the fields the listing gives back). */
export const contactOf = (phone: string, c: Contact): ContactCreate => ({
  phone,
  ...(c.first_name ? { first_name: c.first_name } : {}),
  ...(c.last_name ? { last_name: c.last_name } : {}),
  ...(c.email ? { email: c.email } : {}),
  ...(c.description ? { description: c.description } : {}),
});

/**
 * A delete's fence: as each delete leaves, the lock it was decided under must still be this
 * process's (`held`), and the queue job's lock too (api/send-fence.ts): a process paused past
 * either deletes nothing; whoever took over decides again from a fresh listing.
 */
export const heldFence = (what: string, held: () => Promise<boolean>): SendFence => ({
  async beforeSend() {
    if (!(await held())) throw new OwnershipLostError(what, "taken");
  },
});

/** The fence of a delete decided under the queue job's lock alone: that lock is checked as it leaves. */
export const jobLockFence: SendFence = { beforeSend: async () => undefined };

/** The deletes' pace when the shared rate is not known: the adaptive gate's start. */
export const RATE_UNKNOWN = 20;

/** The shared request rate now, a second (the rate gate's), else RATE_UNKNOWN. */
export const rateNow = async (requestRate?: () => Promise<number | undefined>): Promise<number> =>
  (await requestRate?.()) ?? RATE_UNKNOWN;

/** How long deleting `count` contacts takes at `perSecond` (deleteContacts goes through the shared gate). Pure. */
export const deletesTakeMs = (count: number, perSecond: number): number =>
  Math.ceil((Math.max(0, count) * 1000) / Math.max(1, perSecond));

/**
 * Deletes each contact, 8 at a time, each fenced; one already gone (404) is what a retry expects.
 * Only ids listed are deleted: a contact made again since (by another owner) has another id.
 */
export async function deleteContacts(
  client: Client,
  contactIds: readonly string[],
  fence: SendFence,
): Promise<void> {
  for (let i = 0; i < contactIds.length; i += 8) {
    failpoint("delete.before-send");
    await Promise.all(
      contactIds.slice(i, i + 8).map(async (id) => {
        try {
          await client.contacts.delete(id, { fence });
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      }),
    );
  }
}
