import type { DialerChoice } from "./dialer-match.ts";

/** Grants up to `n` calls on a dialer in the budget period of `at`; `field` names the grant (same field, same answer). */
export type GrantCalls = (dialer: DialerChoice, field: string, n: number, at: number) => Promise<number>;

/** Unlimited: what a pool without budgets, and the preview, grants. */
export const grantAll: GrantCalls = async (_d, _f, n) => n;

/** One campaign's worth: a dialer's contacts in one budget period, and why each matched. */
export interface DialerShare {
  dialer: string;
  number: string;
  /** Why its contacts matched it, and how many each: { "area code 415": 3, "any": 1 }. */
  matched: Record<string, number>;
  /** The period it was granted in when later than planned (a spent budget waited); absent: as planned. */
  from?: number;
  phones: string[];
}

export interface AssignOptions {
  /** When the contacts are planned to be called: the first budget period's instant. */
  at: number;
  /** next: a spent dialer's contacts try their next match first; wait: the next period, same dialer. */
  whenSpent: "next" | "wait";
  /** The start of the budget period after the one holding `t` (the next UTC hour or day). */
  nextPeriod: (t: number) => number;
  /** No period starts this long after `at` or later: its contacts are left out. */
  horizonMs: number;
  /** Unique per planned campaign: the grants' fields begin with it. */
  key: string;
}

/**
 * Each contact's dialer under per-number budgets: period by period, every contact is offered to its
 * best match; a dialer grants as many as its budget allows (in contact order); the rest go to their
 * next match (`next`) or wait for the next period, and those with no match left wait too. The
 * grants' fields follow the period and the round, so a retry meets the same grants and makes the
 * same shares. Unplaced: no dialer matched, or none had budget within the horizon.
 */
export async function assignDialers(
  phones: readonly string[],
  ranks: ReadonlyMap<string, readonly DialerChoice[]>,
  o: AssignOptions,
  grant: GrantCalls,
): Promise<{ shares: DialerShare[]; unplaced: string[]; unmatched: string[] }> {
  const unmatched = phones.filter((p) => (ranks.get(p) ?? []).length === 0);
  let pending = phones.filter((p) => (ranks.get(p) ?? []).length > 0);
  const shares = new Map<string, DialerShare>();
  for (
    let t = o.at, period = 0;
    pending.length > 0 && t < o.at + o.horizonMs;
    t = o.nextPeriod(t), period++
  ) {
    const waiting: string[] = [];
    let offers = pending.map((phone) => ({ phone, choice: 0 }));
    for (let round = 0; offers.length > 0; round++) {
      const next: typeof offers = [];
      for (const [name, group] of byDialer(offers, ranks)) {
        const choice = ranks.get(group[0]!.phone)![group[0]!.choice]!;
        const granted = await grant(choice, `${o.key}|${period}|${round}|${name}`, group.length, t);
        group.forEach((offer, i) => {
          const mine = ranks.get(offer.phone)!;
          if (i < granted)
            shareOf(shares, mine[offer.choice]!, period, period > 0 ? t : undefined, offer.phone);
          else if (o.whenSpent === "next" && offer.choice + 1 < mine.length)
            next.push({ phone: offer.phone, choice: offer.choice + 1 });
          else waiting.push(offer.phone);
        });
      }
      offers = next;
    }
    const order = new Map(phones.map((p, i) => [p, i]));
    pending = waiting.sort((a, b) => order.get(a)! - order.get(b)!);
  }
  return { shares: [...shares.values()], unplaced: pending, unmatched };
}

/** Offers grouped by the dialer each is made to, in the order dialers first appear. */
function byDialer(
  offers: readonly { phone: string; choice: number }[],
  ranks: ReadonlyMap<string, readonly DialerChoice[]>,
): Map<string, { phone: string; choice: number }[]> {
  const groups = new Map<string, { phone: string; choice: number }[]>();
  for (const offer of offers) {
    const name = ranks.get(offer.phone)![offer.choice]!.name;
    const group = groups.get(name) ?? [];
    groups.set(name, group);
    group.push(offer);
  }
  return groups;
}

function shareOf(
  shares: Map<string, DialerShare>,
  choice: DialerChoice,
  period: number,
  from: number | undefined,
  phone: string,
): void {
  const id = `${choice.name}|${period}`;
  const share = shares.get(id) ?? {
    dialer: choice.name,
    number: choice.number,
    matched: {},
    ...(from !== undefined ? { from } : {}),
    phones: [],
  };
  shares.set(id, share);
  share.phones.push(phone);
  share.matched[choice.why] = (share.matched[choice.why] ?? 0) + 1;
}
