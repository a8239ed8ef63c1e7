import { describe, expect, it } from "vitest";
import { OwnershipLostError } from "../../src/api/index.ts";
import { workingFor } from "../../src/lib/job-hold.ts";
import { useSimulator } from "../support/simulator.ts";

/** A queue job whose lock was lost changes nothing more at the service, whatever the change. */
describe("changes sent on behalf of a queue job", () => {
  const t = useSimulator({ timeScale: 1 });
  const hold = (held: boolean) => ({ what: "job start-check:1", held: async () => held });

  it("a delete is not sent once the job's lock is lost; reads still are", async () => {
    const segment = await t.client.segments.create({ name: "held" });
    await t.client.contacts.create(segment.id!, { phone: "+14155550123" });
    // The create's answer carries no id (spec 4.4): the listing does.
    const [contact] = await t.client.contacts.list(segment.id!);
    const listed = async () => (await t.client.contacts.list(segment.id!)).length;

    // Before, only claimed creates asked the hold: this delete went out from a job another worker had.
    await expect(
      workingFor(hold(false), () => t.client.contacts.delete(contact!.id!)),
    ).rejects.toBeInstanceOf(OwnershipLostError);
    expect(await workingFor(hold(false), listed)).toBe(1);

    await workingFor(hold(true), () => t.client.contacts.delete(contact!.id!));
    expect(await listed()).toBe(0);
  });

  it("outside any queue job (the CLI), changes go as before", async () => {
    const segment = await t.client.segments.create({ name: "no job" });
    const updated = await t.client.segments.update(segment.id!, { name: "renamed" });
    expect(updated.name).toBe("renamed");
  });
});
