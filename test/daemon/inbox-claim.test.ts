import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { StartupError } from "../../src/daemon/errors.ts";
import { claimInbox } from "../../src/daemon/inbox-claim.ts";
import { quietLogger } from "../support/daemon.ts";
import { useRedis } from "../support/redis.ts";

describe("an inbox claimed for one job across daemons", () => {
  const r = useRedis();
  const logger = quietLogger();

  it("daemons of the same job share it; another job is refused until every claim is gone", async () => {
    const keys = r.keys();
    const inbox = "/srv/vcw/inbox/leads";
    const a = await claimInbox(r.redis, keys, { inbox, job: "leads", logger });
    const b = await claimInbox(r.redis, keys, { inbox: `${inbox}/`, job: "leads", logger });
    const other = claimInbox(r.redis, keys, { inbox, job: "crm", logger });
    await expect(other).rejects.toThrow(StartupError);
    await expect(other).rejects.toThrow(
      'the inbox /srv/vcw/inbox/leads of job "crm" is watched by another daemon for job "leads"',
    );
    await a.stop();
    await expect(claimInbox(r.redis, keys, { inbox, job: "crm", logger })).rejects.toThrow(/job "leads"/);
    await b.stop();
    const crm = await claimInbox(r.redis, keys, { inbox, job: "crm", logger });
    await crm.stop();
  });

  it("the claim of a daemon that died (no renewal, no release) lapses after its TTL", async () => {
    const keys = r.keys();
    const inbox = "/srv/vcw/inbox/dead";
    const dying = r.redis.duplicate();
    await claimInbox(dying, keys, { inbox, job: "old", logger, ttlMs: 600 });
    await expect(claimInbox(r.redis, keys, { inbox, job: "new", logger })).rejects.toThrow(/job "old"/);
    // Its process is gone: the connection with it, so nothing renews the claim.
    dying.disconnect();
    await sleep(700);
    const next = await claimInbox(r.redis, keys, { inbox, job: "new", logger });
    await next.stop();
  });
});
