import { expect, it } from "vitest";
import { revokeConsent } from "../../../src/pipeline/consent/revoke-consent.ts";

/** Review of issue 46, finding 1: a number is never left revoked but callable. */
it("suppresses each batch of 1,000 before revoking its consent: a failed revocation leaves the numbers suppressed", async () => {
  const phones = Array.from({ length: 2_500 }, (_, i) => `+1212${2_000_000 + i}`);
  const calls: string[] = [];
  const suppressed = new Set<string>();
  const d = {
    suppression: {
      add: async (part: readonly string[]) => {
        calls.push(`add ${part.length}`);
        for (const p of part) suppressed.add(p);
        return part.length;
      },
    },
    consent: {
      revoke: async (part: readonly string[]) => {
        calls.push(`revoke ${part.length}`);
      },
    },
  };
  await revokeConsent(phones, 1, "test", d);
  expect(calls).toEqual(["add 1000", "revoke 1000", "add 1000", "revoke 1000", "add 500", "revoke 500"]);
  suppressed.clear();
  const failing = { ...d, consent: { revoke: async () => Promise.reject(new Error("Redis down")) } };
  await expect(revokeConsent(["+12125550100"], 1, "test", failing)).rejects.toThrow("Redis down");
  expect([...suppressed]).toEqual(["+12125550100"]);
});
