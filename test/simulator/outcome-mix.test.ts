import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Client } from "../../src/api/index.ts";
import { DEFAULT_CALL_MODEL } from "../../src/simulator/call-plan.ts";
import { outcomesFor, parseOutcomeMixes, parseStatusNames } from "../../src/simulator/outcome-mix.ts";
import { startSimulator } from "../../src/simulator/server.ts";
import { runCli } from "../support/cli.ts";
import { tempDir } from "../support/files.ts";
import { API_KEY, validAssistant, validDialer } from "../support/fixtures.ts";
import { testClient } from "../support/simulator.ts";

const phones = (n: number) => Array.from({ length: n }, (_, i) => `+1415555${String(3000 + i)}`);

/** A campaign of 200 contacts made with `assistantId`, run to its end; its statuses counted. */
async function statusesOf(client: Client, assistantId: string, advance: (ms: number) => void) {
  const segment = await client.segments.create({ name: `seg-${assistantId}` });
  for (const phone of phones(200)) await client.contacts.create(segment.id!, { phone });
  const campaign = await client.campaigns.create({
    campaigns_name: `run ${assistantId}`,
    assistant_id: assistantId,
    contacts_id: segment.id!,
    dialer_id: (await client.dialers.create(validDialer())).id!,
    scheduled_at: new Date(0).toISOString(),
  });
  advance(86_400_000);
  const counts: Record<string, number> = {};
  for (const e of await client.campaigns.audiences(campaign.id!))
    counts[String(e.status)] = (counts[String(e.status)] ?? 0) + 1;
  return counts;
}

describe("simulator: each assistant's own outcome mix", () => {
  it("by name: its calls follow its mix; an assistant not named keeps the default mix", async () => {
    const sim = await startSimulator({
      apiKey: API_KEY,
      callModel: {
        outcomesByAssistant: { Closer: { completed: 9, "opted-out": 1 } },
      },
    });
    try {
      const client = testClient(sim);
      const closer = (await client.assistants.create(validAssistant({ name: "Closer" }))).id!;
      const plain = (await client.assistants.create(validAssistant({ name: "Plain" }))).id!;
      const advance = (ms: number) => sim.clock.advance(ms);
      const good = await statusesOf(client, closer, advance);
      expect(Object.keys(good).sort()).toEqual(["completed", "opted-out"]);
      expect(good.completed).toBeGreaterThan(160);
      const other = await statusesOf(client, plain, advance);
      expect(Object.keys(other).length).toBeGreaterThan(3);
      expect(other.completed).toBeLessThan(140);
    } finally {
      await sim.close();
    }
  });

  it("an assistant's id wins over its name", () => {
    const model = {
      ...DEFAULT_CALL_MODEL,
      outcomesByAssistant: { asst_9: { busy: 1 }, Ava: { failed: 1 } },
    };
    expect(outcomesFor(model, { id: "asst_9", name: "Ava" })).toMatchObject({
      busy: 1,
      failed: 0,
      completed: 0,
    });
    expect(outcomesFor(model, { id: "asst_8", name: "Ava" })).toMatchObject({ busy: 0, failed: 1 });
    expect(outcomesFor(model, { id: "asst_8", name: "Bo" })).toBe(DEFAULT_CALL_MODEL.outcomes);
  });

  it("the flag: JSON or @FILE; a bad mix is refused naming the assistant and the status", async () => {
    const file = join(tempDir("vcw-mix-"), "mix.json");
    writeFileSync(file, '{"asst_1":{"no-answer":1}}');
    expect(parseOutcomeMixes(`@${file}`)).toEqual({ asst_1: { "no-answer": 1 } });
    expect(() => parseOutcomeMixes('{"Ava":{"answered":1}}')).toThrow(
      /Ava\.answered: .*is not a status: one of completed/,
    );
    expect(() => parseOutcomeMixes('{"Ava":{"completed":0}}')).toThrow(/Ava: must give at least one status/);
    expect(() => parseOutcomeMixes("{nope")).toThrow(/the value is not JSON/);
    const cli = await runCli([
      "simulator",
      "--api-key",
      "k",
      "--outcomes-by-assistant",
      '{"Ava":{"busy":-1}}',
    ]);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toMatch(/--outcomes-by-assistant.*Ava\.busy/);
  });
});

describe("simulator: the service's own words for statuses (--status-names)", () => {
  it("audiences report them, on the way and at the end; the others keep the simulator's", async () => {
    const sim = await startSimulator({
      apiKey: API_KEY,
      callModel: {
        outcomes: { completed: 1, busy: 1, "no-answer": 0, voicemail: 0, failed: 0, "opted-out": 0 },
        statusNames: { completed: "constructor", queued: "waiting" },
      },
    });
    try {
      const client = testClient(sim);
      const segment = await client.segments.create({ name: "names" });
      for (const phone of phones(40)) await client.contacts.create(segment.id!, { phone });
      const campaign = await client.campaigns.create({
        campaigns_name: "names",
        assistant_id: (await client.assistants.create(validAssistant())).id!,
        contacts_id: segment.id!,
        dialer_id: (await client.dialers.create(validDialer())).id!,
      });
      const statuses = async () =>
        [...new Set((await client.campaigns.audiences(campaign.id!)).map((e) => e.status))].sort();
      // Just started: most calls wait their turn (3 s apart).
      expect(await statuses()).toContain("waiting");
      expect(await statuses()).not.toContain("queued");
      sim.clock.advance(86_400_000);
      expect(await statuses()).toEqual(["busy", "constructor"]);
    } finally {
      await sim.close();
    }
  });

  it("the flag: JSON or @FILE; a status the simulator has not, or an empty word, is refused naming it", () => {
    expect(parseStatusNames('{"busy":"line-busy"}')).toEqual({ busy: "line-busy" });
    expect(() => parseStatusNames('{"answered":"x"}')).toThrow(
      /answered: is not a status: one of queued, ringing/,
    );
    expect(() => parseStatusNames('{"busy":""}')).toThrow(/busy: must not be empty/);
  });
});
