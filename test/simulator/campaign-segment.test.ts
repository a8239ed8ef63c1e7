import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Client } from "../../src/api/index.ts";
import { type SimulatorOptions, startSimulator } from "../../src/simulator/server.ts";
import { API_KEY, validAssistant, validDialer } from "../support/fixtures.ts";
import { testClient } from "../support/simulator.ts";

const phones = (n: number) => Array.from({ length: n }, (_, i) => `+1415555${String(2000 + i)}`);

/** A campaign of `n` contacts starting now (3 s between dials), and its segment. */
async function startedCampaign(client: Client, n: number) {
  const segment = await client.segments.create({ name: `seg-${n}` });
  for (const phone of phones(n)) await client.contacts.create(segment.id!, { phone });
  const campaign = await client.campaigns.create({
    campaigns_name: "run",
    assistant_id: (await client.assistants.create(validAssistant())).id!,
    contacts_id: segment.id!,
    dialer_id: (await client.dialers.create(validDialer())).id!,
    scheduled_at: new Date(0).toISOString(),
  });
  return { campaign, segmentId: segment.id! };
}

/** Runs one campaign of 10, lets 4 dials pass, deletes the last 5 contacts, and ends every call. */
async function deleteMidCampaign(options: Partial<SimulatorOptions>) {
  const sim = await startSimulator({ apiKey: API_KEY, ...options });
  try {
    const client = testClient(sim);
    const { campaign, segmentId } = await startedCampaign(client, 10);
    sim.clock.advance(4 * 3_000 + 2_500);
    const contacts = await client.contacts.list(segmentId);
    for (const c of contacts.slice(5)) await client.contacts.delete(c.id!);
    sim.clock.advance(86_400_000);
    const entries = await client.campaigns.audiences(campaign.id!);
    return { entries, deleted: contacts.slice(5).map((c) => c.phone) };
  } finally {
    await sim.close();
  }
}

describe("simulator --campaign-segment", () => {
  it("fixed (the default): a contact deleted after the start is still called", async () => {
    const { entries, deleted } = await deleteMidCampaign({});
    expect(entries).toHaveLength(10);
    const called = entries.filter((e) => deleted.includes(e.phone!));
    expect(called.map((e) => e.status)).not.toContain("queued");
    expect(called).toHaveLength(5);
  });

  it("live: a contact deleted before its turn is not called and leaves the audience", async () => {
    const { entries, deleted } = await deleteMidCampaign({ campaignSegment: "live" });
    expect(entries.map((e) => e.phone)).toEqual(phones(5));
    expect(entries.every((e) => e.status !== "queued")).toBe(true);
    expect(entries.some((e) => deleted.includes(e.phone!))).toBe(false);
  });

  it("live: a contact deleted after its dial keeps its call", async () => {
    const sim = await startSimulator({ apiKey: API_KEY, campaignSegment: "live" });
    try {
      const client = testClient(sim);
      const { campaign, segmentId } = await startedCampaign(client, 3);
      sim.clock.advance(10 * 60_000);
      for (const c of await client.contacts.list(segmentId)) await client.contacts.delete(c.id!);
      const entries = await client.campaigns.audiences(campaign.id!);
      expect(entries.map((e) => e.phone)).toEqual(phones(3));
    } finally {
      await sim.close();
    }
  });

  it("live: a withdrawal survives a restart from the state file and its journal", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "vcw-sim-live-")), "state.json");
    const first = await startSimulator({ apiKey: API_KEY, campaignSegment: "live", stateFile });
    const client = testClient(first);
    const { campaign, segmentId } = await startedCampaign(client, 4);
    const [, , third] = await client.contacts.list(segmentId);
    await client.contacts.delete(third!.id!);
    await first.close();
    const second = await startSimulator({ apiKey: API_KEY, campaignSegment: "live", stateFile });
    try {
      second.clock.advance(86_400_000);
      const entries = await testClient(second).campaigns.audiences(campaign.id!);
      expect(entries.map((e) => e.phone)).toEqual(phones(4).filter((p) => p !== third!.phone));
    } finally {
      await second.close();
    }
  });
});
