/**
 * One report run, in a process of its own so its peak RSS is the report's: seeds `campaigns`
 * campaigns of `contacts` contacts whose calls ended over the last 7 days (records, totals, one
 * stream entry of transitions per poll, as polls write them), then measures the bare reads a report
 * makes, building the 7-day report from them, and its e-mail. Sends the result to its parent.
 */
import { randomBytes } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Redis } from "ioredis";
import nodemailer from "nodemailer";
import { JobDefinition } from "../src/config/job-definition.ts";
import { folderInbox } from "../src/inbox/folder-inbox.ts";
import { redisKeys } from "../src/lib/redis-keys.ts";
import { emptyTotals } from "../src/pipeline/model/campaign-totals.ts";
import type { ResultRecord } from "../src/pipeline/model/results.ts";
import { gatherReport } from "../src/pipeline/reports/gather-report.ts";
import { createCampaignStore } from "../src/pipeline/stores/campaign-store.ts";
import { reportEmail } from "../src/sinks/email/report-email.ts";

export interface ReportRun {
  campaigns: number;
  contacts: number;
  msBare: number;
  msBuild: number;
  msEmail: number;
  rssBeforeMb: number;
  peakRssMb: number;
  emailBytes: number;
  calls: number;
  /** The event loop's longest delay while the report was built (ms). */
  loopMaxMs: number;
}

const HOUR = 3_600_000;
const STATUSES = [
  "completed",
  "completed",
  "no-answer",
  "voicemail",
  "busy",
  "opted-out",
  "completed",
  "failed",
];

async function seed(
  redis: Redis,
  keys: ReturnType<typeof redisKeys>,
  job: string,
  n: number,
  size: number,
  now: number,
) {
  const store = createCampaignStore(redis, keys);
  for (let c = 0; c < n; c++) {
    const id = `cmp_${String(c).padStart(5, "0")}`;
    const created = now - 7 * 24 * HOUR + (c / n) * 6 * 24 * HOUR;
    await store.register(
      {
        id,
        name: `${job} campaign ${c}`,
        job,
        file: `file-${c}.csv`,
        sha256: "00",
        gen: 1,
        segmentId: "seg",
        scheduledAt: new Date(created).toISOString(),
        state: "active",
        attempt: c % 5 === 4 ? 1 : 0,
        zone: ["America/New_York", "America/Chicago", "America/Los_Angeles"][c % 3]!,
        followUps: [],
      },
      created,
    );
    const totals = emptyTotals();
    const tx = redis.multi();
    const transitions: { phone: string; from: string; to: string }[][] = [[], [], [], []];
    for (let i = 0; i < size; i++) {
      const phone = `+1212${String(c * size + i).padStart(7, "0")}`;
      const status = STATUSES[(c + i) % STATUSES.length]!;
      const r: ResultRecord = {
        phone,
        first_name: "Ann",
        last_name: "Lee",
        status,
        durationSec: status === "completed" ? 30 + ((i * 7) % 200) : 0,
        sentiment: status === "completed" ? "positive" : "",
        transferred: i % 17 === 0,
        meeting: status === "completed" && i % 5 === 0,
        messageSent: false,
        error: "",
        recordingUrl: "",
        transcript: "",
      };
      totals.contacts += 1;
      totals.final += 1;
      totals.byStatus[status] = (totals.byStatus[status] ?? 0) + 1;
      if (r.meeting) totals.meetings += 1;
      tx.hset(keys.campaign.results(id), phone, JSON.stringify(r));
      transitions[i % 4]!.push({ phone, from: "queued", to: status });
    }
    transitions.forEach((list, poll) => {
      const at = Math.floor(created + (poll + 1) * 3 * HOUR);
      tx.xadd(
        keys.campaign.events(id),
        `${at}-0`,
        "version",
        String(poll + 1),
        "transitions",
        JSON.stringify(list),
      );
    });
    tx.hset(keys.campaign.meta(id), {
      totals: JSON.stringify(totals),
      info: JSON.stringify({ ...(await store.get(id))!.info, state: "finished" }),
      endedAt: String(Math.floor(created + 12 * HOUR)),
    });
    await tx.exec();
  }
}

async function main(): Promise<void> {
  const [n = 1000, size = 100] = process.argv.slice(2).map(Number);
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: null });
  const prefix = `vcw-bench-report-${randomBytes(4).toString("hex")}`;
  const keys = redisKeys(prefix);
  const job = "bench";
  const now = Date.now();
  try {
    await seed(redis, keys, job, n, size, now);
    const store = createCampaignStore(redis, keys);
    const def = JobDefinition.parse({ name: job, inbox: `/nonexistent/${prefix}`, segment: { id: "seg" } });
    global.gc?.();
    const rssBeforeMb = process.memoryUsage().rss / 1048576;
    // The reads a report makes, and nothing else: meta, transitions in the two periods, the records.
    let started = performance.now();
    const ids = await store.allOf(job);
    const bare = async (id: string) => {
      await store.get(id);
      const phones: string[] = [];
      for await (const t of store.transitionsBetween(id, now - 14 * 24 * HOUR, now)) phones.push(t.phone);
      await store.records(id, phones);
    };
    // 16 at once, as the report reads them.
    for (let i = 0; i < ids.length; i += 16) await Promise.all(ids.slice(i, i + 16).map(bare));
    const msBare = performance.now() - started;
    started = performance.now();
    const period = {
      from: new Date(now - 7 * 24 * HOUR).toISOString(),
      to: new Date(now).toISOString(),
      timezone: "America/New_York",
      label: "week",
    };
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const report = await gatherReport([def], period, { store, inboxes: folderInbox }, now);
    const msBuild = performance.now() - started;
    loop.disable();
    started = performance.now();
    const mail = await reportEmail(report);
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const info = await transport.sendMail({
      from: "vcw@example.com",
      to: "manager@example.com",
      subject: "bench",
      html: mail.html,
      text: mail.text,
      attachments: mail.images,
    });
    const msEmail = performance.now() - started;
    const result: ReportRun = {
      campaigns: n,
      contacts: size,
      msBare,
      msBuild,
      msEmail,
      rssBeforeMb,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      emailBytes: (info.message as Buffer).length,
      calls: report.totals.calls,
      loopMaxMs: loop.max / 1e6,
    };
    process.send?.(result);
  } finally {
    let cursor = "0";
    do {
      const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (found.length > 0) await redis.del(...found);
    } while (cursor !== "0");
    await redis.quit();
  }
}

await main();
