import { DelayedError, type Job, UnrecoverableError } from "bullmq";
import type { Logger } from "pino";
import { describe, expect, it, vi } from "vitest";
import type { CampaignInfo } from "../../src/pipeline/model/results.ts";
import type { PollOutcome } from "../../src/pipeline/results/poll-campaign.ts";
import { type CreateCampaign, createCampaignProcessor } from "../../src/queue/campaign-processor.ts";
import { createDeliveryProcessor } from "../../src/queue/delivery-processor.ts";
import { NotDefinedHereError, SinkBusyError } from "../../src/queue/errors.ts";
import { createFollowUpProcessor, type FollowUpWork } from "../../src/queue/follow-up-processor.ts";
import { createImportProcessor, type ImportFile } from "../../src/queue/import-processor.ts";
import { createPollProcessor } from "../../src/queue/poll-processor.ts";
import { SinkError } from "../../src/sinks/sink-error.ts";

/**
 * Each processor is handed its use case as one function (queue/use-cases.ts binds them at the root):
 * here a stub, so what is left to test is the processor's own part, its outcome mapped to the job's fate.
 */
const logger = () =>
  ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() }) as unknown as Logger & {
    info: ReturnType<typeof vi.fn>;
  };
const jobOf = <D>(data: D, more: Record<string, unknown> = {}) =>
  ({
    id: "7",
    name: "x",
    data,
    attemptsStarted: 1,
    attemptsMade: 0,
    opts: { attempts: 3 },
    timestamp: 1_000,
    progress: {},
    moveToDelayed: vi.fn(async () => {}),
    ...more,
  }) as unknown as Job<D>;

describe("processors handed their use case as one function", () => {
  it("campaign: a created campaign is logged ready; a paused job waits pausedRetryMs, not an attempt", async () => {
    const info = { id: "c1", name: "n", scheduledAt: "2026-01-01T10:00:00Z", zone: "UTC" } as CampaignInfo;
    const create = vi.fn<CreateCampaign>(async () => ({ kind: "created", id: "c1", info }));
    const log = logger();
    const process = createCampaignProcessor(create, { logger: log, pausedRetryMs: 50 });
    const job = jobOf({ job: "leads", name: "n" } as never);
    expect(await process(job, "token")).toEqual({ id: "c1", created: true });
    expect(create).toHaveBeenCalledWith(job.data, { canWait: true });
    expect(log.info.mock.calls[0]?.[1]).toBe("campaign ready");
    create.mockResolvedValueOnce({ kind: "paused" });
    await expect(process(job, "token")).rejects.toBeInstanceOf(DelayedError);
    expect((job.moveToDelayed as ReturnType<typeof vi.fn>).mock.calls[0]?.[0]).toBeGreaterThan(Date.now());
  });

  it("import: the attempt is read off the job; a rejected file fails for good", async () => {
    const importFile = vi.fn<ImportFile>(
      async () => ({ kind: "rejected", reason: "no phone column" }) as never,
    );
    const job = jobOf({ job: "leads", file: "a.csv" } as never);
    await expect(createImportProcessor(importFile, {})(job, "token")).rejects.toThrow(
      new UnrecoverableError("no phone column"),
    );
    const [file, attempt, jobId] = importFile.mock.calls[0] ?? [];
    expect(file).toMatchObject({ job: "leads", admittedAt: 1_000 });
    expect(attempt).toMatchObject({ attemptsStarted: 1, last: false, canWait: true });
    expect(attempt?.owner).toMatch(/^7#1-[0-9a-f]{8}$/);
    expect(jobId).toBe("7");
  });

  it("poll: the poll and its follow run inside the campaign's trace; its outcome is the job's result", async () => {
    const poll = { changed: 2, state: "active" } as PollOutcome;
    const span = { setAttributes: vi.fn() };
    const traces = {
      run: vi.fn((_id: string, _n: string, _o: unknown, fn: (s: typeof span) => unknown) => fn(span)),
    };
    const process = createPollProcessor(async () => poll, traces as never);
    expect(await process(jobOf({ job: "leads", campaignId: "c1", tick: 0, periodMs: 1 }))).toBe(poll);
    expect(traces.run.mock.calls[0]?.[0]).toBe("c1");
    expect(span.setAttributes).toHaveBeenCalledWith({ "vcw.poll.changed": 2, "vcw.poll.state": "active" });
  });

  it("follow-ups: each kind of job goes to its own work", async () => {
    const w: FollowUpWork = {
      followUp: vi.fn(async () => ({ kind: "none" }) as const),
      resume: vi.fn(async () => ({ kind: "none" }) as const),
      startCheck: vi.fn(async () => ({ checked: false })),
      lateLook: vi.fn(async () => ({ looked: false })),
    };
    const process = createFollowUpProcessor(w, logger());
    const data = { job: "leads", campaignId: "c1" };
    expect(await process(jobOf(data, { name: "start-check" }))).toEqual({ checked: false });
    expect(await process(jobOf(data, { name: "late-look" }))).toEqual({ looked: false });
    expect(await process(jobOf(data, { name: "resume" }))).toEqual({ contacts: 0, honoured: undefined });
    expect(await process(jobOf(data, { name: "follow-up" }))).toEqual({ contacts: 0 });
    expect(w.followUp).toHaveBeenCalledWith(data, "7#1");
  });

  it("deliveries: a sink not here is handed back before a slot is taken; busy slots hand back; a 410 fails", async () => {
    let release = () => {};
    const deliver = vi.fn(() => new Promise<void>((r) => (release = r)));
    const sinkFor = (name: string) => {
      if (name !== "hook") throw new NotDefinedHereError("sink", name);
      return deliver;
    };
    const process = createDeliveryProcessor(sinkFor, { perSink: 1 });
    const job = (sink: string) => jobOf({ sink, idempotencyKey: "k", payload: {} as never });
    await expect(process(job("other"))).rejects.toBeInstanceOf(NotDefinedHereError);
    const first = process(job("hook"));
    await expect(process(job("hook"))).rejects.toBeInstanceOf(SinkBusyError);
    release();
    await first;
    deliver.mockRejectedValueOnce(new SinkError("hook", "gone", 410));
    await expect(process(job("hook"))).rejects.toBeInstanceOf(UnrecoverableError);
  });
});
