import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../src/api/index.ts";
import {
  validAction,
  validAssistant,
  validDialer,
  validKnowledgeBase,
  validSipDialer,
} from "../support/fixtures.ts";
import { useSimulator } from "../support/simulator.ts";

/** Every operation of the spec, through the real client, against the real simulator over HTTP. */
describe("client operations against the simulator", () => {
  const t = useSimulator({ timeScale: 1 });

  it("dialers.create and dialers.update, without echoing credentials", async () => {
    const dialer = await t.client.dialers.create(validDialer());
    expect(dialer).toMatchObject({
      dialer_type: "provider_a",
      name: "Main line",
      phone_number: "+14155550100",
    });
    expect(dialer.id).toMatch(/^dlr_/);
    expect(dialer).not.toHaveProperty("auth_token");

    const sip = await t.client.dialers.create(validSipDialer());
    expect(sip).toMatchObject({ dialer_type: "sip", sip_termination_uri: "sip:trunk.example.com" });
    expect(sip).not.toHaveProperty("sip_trunk_password");

    const updated = await t.client.dialers.update(dialer.id!, { name: "Renamed line" });
    expect(updated).toMatchObject({ id: dialer.id, name: "Renamed line", sid: "AC0123456789" });
  });

  it("provider_b dialers need no auth token", async () => {
    const dialer = await t.client.dialers.create(
      validDialer({ dialer_type: "provider_b", auth_token: undefined }),
    );
    expect(dialer.dialer_type).toBe("provider_b");
  });

  it("assistants.create, list and delete", async () => {
    const kb = await t.client.knowledgeBases.create(validKnowledgeBase());
    const created = await t.client.assistants.create(
      validAssistant({
        knowledge_base_Id: kb.id!,
        actions: [validAction()],
        fillers: ["umm", "uhh"],
        is_filler: true,
        voice_speed: 1.3,
        temperature: 0.7,
        sensitivity: 2000,
        utterance_length: 10,
        language: "ar-kw",
        type: "outbound",
        is_wait_start_speech: true,
      }),
    );
    expect(created.id).toMatch(/^ast_/);
    // The simulator sends fillers as one string, as the spec's samples do; the client reads an array.
    expect(created.fillers).toEqual(["umm", "uhh"]);
    expect(created).toMatchObject({ knowledge_base_Id: kb.id, voice_speed: 1.3, language: "ar-kw" });

    const listed = await t.client.assistants.list();
    expect(listed.map((a) => a.id)).toContain(created.id);

    await expect(t.client.assistants.delete(created.id!)).resolves.toBeUndefined();
    expect((await t.client.assistants.list()).map((a) => a.id)).not.toContain(created.id);
    await expect(t.client.assistants.delete(created.id!)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("segments.create, update and list", async () => {
    const segment = await t.client.segments.create({ name: "Leads November", description: "from the CRM" });
    expect(segment).toMatchObject({ name: "Leads November", description: "from the CRM" });
    const updated = await t.client.segments.update(segment.id!, {
      name: "Leads Nov",
      description: "renamed",
    });
    expect(updated).toMatchObject({ id: segment.id, name: "Leads Nov", description: "renamed" });
    const listed = await t.client.segments.list();
    expect(listed).toContainEqual(expect.objectContaining({ id: segment.id, name: "Leads Nov" }));
  });

  it("contacts.create, list, update and delete", async () => {
    const segment = await t.client.segments.create({ name: "Contacts test" });
    const created = await t.client.contacts.create(segment.id!, {
      first_name: "Ana",
      last_name: "Lima",
      phone: "+5511987654321",
      email: "ana@example.com",
      job_title: "CTO",
      lifecycle_stage: "lead",
      lead_status: "new",
    });
    expect(created.message).toMatch(/created/i);

    const [contact] = await t.client.contacts.list(segment.id!);
    expect(contact).toMatchObject({ first_name: "Ana", phone: "+5511987654321", email: "ana@example.com" });
    expect(contact!.id).toMatch(/^cnt_/);

    const updated = await t.client.contacts.update(contact!.id!, { last_name: "Souza" });
    expect(updated.message).toMatch(/updated/i);
    expect((await t.client.contacts.list(segment.id!))[0]).toMatchObject({ last_name: "Souza" });

    await t.client.contacts.delete(contact!.id!);
    expect(await t.client.contacts.list(segment.id!)).toEqual([]);
  });

  it("campaigns.create, list and audiences: the calls run to a final status", async () => {
    const segment = await t.client.segments.create({ name: "Campaign test" });
    for (const phone of ["+14155550101", "+14155550102", "+14155550103"]) {
      await t.client.contacts.create(segment.id!, { phone, first_name: "Lee" });
    }
    const dialer = await t.client.dialers.create(validDialer());
    const assistant = await t.client.assistants.create(validAssistant());
    const scheduledAt = new Date(t.sim.clock.now() + 60_000).toISOString();
    const campaign = await t.client.campaigns.create({
      campaigns_name: "November outreach",
      assistant_id: assistant.id!,
      contacts_id: segment.id!,
      dialer_id: dialer.id!,
      scheduled_at: scheduledAt,
      is_automation: true,
    });
    expect(campaign).toMatchObject({
      campaigns_name: "November outreach",
      assistant_name: "Ava",
      contact_name: "Campaign test",
      dialer_name: "Main line",
      dialer_type: "provider_a",
      phone_number: "+14155550100",
      started_at: scheduledAt,
      is_started: false,
      is_automation: true,
    });
    expect(await t.client.campaigns.audiences(campaign.id!)).toEqual([]);

    t.sim.clock.advance(60_000);
    const started = await t.client.campaigns.audiences(campaign.id!);
    expect(started.map((e) => e.phone).sort()).toEqual(["+14155550101", "+14155550102", "+14155550103"]);
    expect((await t.client.campaigns.list()).find((c) => c.id === campaign.id)?.is_started).toBe(true);

    t.sim.clock.advance(60 * 60_000);
    const done = await t.client.campaigns.audiences(campaign.id!);
    const finals = ["completed", "no-answer", "busy", "voicemail", "failed", "opted-out"];
    for (const entry of done) expect(finals).toContain(entry.status);
  });

  it("playground.call and list", async () => {
    const dialer = await t.client.dialers.create(validDialer());
    const assistant = await t.client.assistants.create(validAssistant());
    const call = await t.client.playground.call({
      first_name: "Sam",
      last_name: "Doe",
      email: "sam@example.com",
      phone_number: ["+14155550199"],
      assistant_id: assistant.id!,
      dialer_id: dialer.id!,
    });
    expect(call).toMatchObject({
      first_name: "Sam",
      phone_number: ["+14155550199"],
      assistant_id: assistant.id,
    });
    expect((await t.client.playground.list()).map((c) => c.id)).toContain(call.id);
  });

  it("knowledgeBases.create, list and delete", async () => {
    const kb = await t.client.knowledgeBases.create(validKnowledgeBase({ title: "Pricing" }));
    expect(kb).toMatchObject({ title: "Pricing", language: "en", data: [{ question: "What is Acme?" }] });
    expect((await t.client.knowledgeBases.list()).map((k) => k.id)).toContain(kb.id);
    await t.client.knowledgeBases.delete(kb.id!);
    expect((await t.client.knowledgeBases.list()).map((k) => k.id)).not.toContain(kb.id);
  });

  it("unknown ids are NotFoundError naming what was looked for", async () => {
    await expect(t.client.contacts.list("seg_nope")).rejects.toThrow(/no segment with id seg_nope/);
    await expect(
      t.client.campaigns.create({
        campaigns_name: "x",
        assistant_id: "nope",
        contacts_id: "nope",
        dialer_id: "nope",
      }),
    ).rejects.toThrow(/assistant_id: no assistant with id nope/);
  });
});
