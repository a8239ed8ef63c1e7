import { fmix } from "./entry-fingerprint.ts";

/**
 * A digest of a whole audience computed while it streams, whatever the order of its entries: the
 * sum (mod 2^32, per lane) of each entry's fingerprint, and the count of phones. A phone listed
 * again adds its fingerprint mixed with how many times it was seen before, so the digest also
 * tells which entry of a phone came last (the one kept), and nothing needs taking back out.
 *
 * Equal digests mean an unchanged audience unless two different audiences add up alike: with
 * 64-bit fingerprints, about one chance in 2^64 for a poll.
 */
export class AudienceDigest {
  private a = 0;
  private b = 0;
  private phones = 0;

  /** One entry of fingerprint `fa`, `fb`; `seenBefore`: entries of its phone earlier in this audience. */
  add(fa: number, fb: number, seenBefore: number): void {
    if (seenBefore === 0) {
      this.phones += 1;
    } else {
      fa = fmix(fa ^ Math.imul(seenBefore, 0x9e3779b1));
      fb = fmix(fb + seenBefore);
    }
    this.a = (this.a + fa) >>> 0;
    this.b = (this.b + fb) >>> 0;
  }

  /** As stored with the campaign (a different form from older digests, which therefore differ once). */
  value(): string {
    return `s1:${this.phones}:${this.a.toString(36)}:${this.b.toString(36)}`;
  }
}

/** The number of phones an audience digest counted (undefined for an older digest form). */
export function phonesOfDigest(digest: string): number | undefined {
  const match = /^s1:(\d+):/.exec(digest);
  return match ? Number(match[1]) : undefined;
}
