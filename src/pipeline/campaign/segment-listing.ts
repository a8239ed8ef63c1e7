import type { CountryCode } from "libphonenumber-js/max";
import type { Client } from "../../api/client.ts";
import { NotFoundError } from "../../api/errors/index.ts";
import type { Contact, ContactCreate } from "../../api/schemas/index.ts";
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

/** Deletes each contact, 8 at a time; one already gone (404) is what a retry expects. */
export async function deleteContacts(client: Client, contactIds: readonly string[]): Promise<void> {
  for (let i = 0; i < contactIds.length; i += 8) {
    await Promise.all(
      contactIds.slice(i, i + 8).map(async (id) => {
        try {
          await client.contacts.delete(id);
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      }),
    );
  }
}
