import { describe, expect, it } from "vitest";
import { type AdmitDeps, type AdmitResult, admitFile } from "../../src/inbox/admit-file.ts";
import { parseBucketAddress } from "../../src/inbox/bucket/bucket-address.ts";
import type { BucketSettings } from "../../src/inbox/bucket/bucket-client.ts";
import { createFileRegistry } from "../../src/inbox/file-registry.ts";
import type { Arrival, InboxStore } from "../../src/inbox/inbox-store.ts";
import { createInboxStores } from "../../src/inbox/inbox-stores.ts";
import { settleFile } from "../../src/inbox/settle-file.ts";
import { useBucket } from "../support/bucket.ts";
import { tempDir } from "../support/files.ts";
import { useRedis } from "../support/redis.ts";
import { startS3Proxy } from "../support/s3-proxy.ts";

// A bucket prefix as a job's inbox, against the suite's own S3 server (s3rver, or MinIO with Docker).
describe("a bucket inbox", () => {
  const { redis, keys } = useRedis();
  const b = useBucket();

  const settings = (endpoint = b.s3.endpoint): BucketSettings => ({
    endpoint,
    region: "us-east-1",
    pathStyle: true,
    scanMs: 100,
  });
  /** One worker's view of the inbox: its own S3 client, as on another machine. */
  const worker = (inbox: string, k = keys(), endpoint?: string) => {
    const stores = createInboxStores({
      redis,
      keys: k,
      bucket: settings(endpoint),
      downloads: tempDir("vcw-downloads-"),
      claimMs: 5_000,
    });
    return stores(inbox);
  };
  const admitter = (store: InboxStore, k = keys(), queued: string[] = []): AdmitDeps => ({
    job: "crm",
    inbox: store,
    registry: createFileRegistry(redis, k),
    enqueue: async (file) => {
      queued.push(file.file);
      return file.file;
    },
  });
  const arrivals = async (store: InboxStore): Promise<Arrival[]> => {
    const out: Arrival[] = [];
    const watcher = await store.watch(
      async (a) => {
        out.push(a);
      },
      { scanMs: 20, stableMs: 0 },
    );
    await watcher.ready;
    // Whole once listed unchanged twice: the second listing reports it.
    await new Promise((r) => setTimeout(r, 200));
    await watcher.close();
    return [...new Map(out.map((a) => [a.where + a.tag, a])).values()];
  };
  const admit = (store: InboxStore, a: Arrival, d: AdmitDeps) =>
    store.claim(a, () => admitFile(a, d)).then((r): AdmitResult => r ?? { kind: "ignored", reason: "held" });

  it("three workers over one prefix take each upload once: copied to processing/, deleted from the inbox", async () => {
    const name = await b.bucket();
    const inbox = `s3://${name}/crm/leads/`;
    for (let i = 0; i < 30; i++)
      await b.put(name, `crm/leads/f${i}.csv`, `phone\n+1415555${String(i).padStart(4, "0")}\n`);
    const k = keys();
    const queued: string[] = [];
    const workers = [0, 1, 2].map(() => worker(inbox, k));
    const seen = await Promise.all(workers.map((w) => arrivals(w)));
    expect(seen.map((s) => s.length)).toEqual([30, 30, 30]);
    const results = await Promise.all(
      workers.flatMap((w, i) => seen[i]!.map((a) => admit(w, a, admitter(w, k, queued)))),
    );
    expect(new Set(queued).size).toBe(30);
    expect(queued).toHaveLength(30);
    expect(results.filter((r) => r.kind === "ignored")).toHaveLength(60);
    expect(await b.keys(name, "crm/leads/processing/")).toHaveLength(30);
    // Nothing left where it arrived but what vcw made: processing/ only.
    expect((await b.keys(name, "crm/leads/")).filter((key) => !key.includes("/processing/"))).toEqual([]);
  }, 60_000);

  it("the same content again is a duplicate; a re-upload of the key with new content is a new file", async () => {
    const name = await b.bucket();
    const inbox = `s3://${name}/in/`;
    const w = worker(inbox);
    const d = admitter(w);
    await b.put(name, "in/leads.csv", "phone\n+14155550100\n");
    const [first] = await arrivals(w);
    const taken = await admit(w, first!, d);
    expect(taken.kind).toBe("queued");
    if (taken.kind !== "queued") return;
    await settleFile(w, taken.file, "done", { status: "imported" });
    await d.registry.settle("crm", taken.sha256, "done");

    await b.put(name, "in/leads.csv", "phone\n+14155550100\n");
    const [again] = await arrivals(w);
    const dup = await admit(w, again!, d);
    expect(dup.kind).toBe("duplicate");
    const dupSummary = (await b.keys(name, "in/done/")).find(
      (key) => key.includes("-dup") && key.endsWith(".summary.json"),
    );
    expect(JSON.parse((await b.text(name, dupSummary!))!)).toMatchObject({
      status: "duplicate",
      file: "leads.csv",
    });

    await b.put(name, "in/leads.csv", "phone\n+14155550199\n");
    const [changed] = await arrivals(w);
    const fresh = await admit(w, changed!, d);
    expect(fresh.kind).toBe("queued");
    if (fresh.kind === "queued") expect(fresh.sha256).not.toBe(taken.sha256);
    expect(await b.keys(name, "in/processing/")).toEqual([
      `in/processing/${fresh.kind === "queued" ? fresh.file : ""}`,
    ]);
  }, 30_000);

  it("an upload replaced after it was listed is not taken (the new one is), and is never deleted", async () => {
    const name = await b.bucket();
    const w = worker(`s3://${name}/in/`);
    const d = admitter(w);
    await b.put(name, "in/leads.csv", "phone\n+14155550100\n");
    const [old] = await arrivals(w);
    await b.put(name, "in/leads.csv", "phone\n+14155550101\n+14155550102\n");
    const r = await admit(w, old!, d);
    expect(r).toMatchObject({ kind: "ignored", reason: expect.stringContaining("replaced by a new upload") });
    expect(await b.keys(name, "in/")).toEqual(["in/leads.csv"]);
    const [fresh] = await arrivals(w);
    expect((await admit(w, fresh!, d)).kind).toBe("queued");
    expect(await b.keys(name, "in/")).toHaveLength(1);
    const [copy] = await b.keys(name, "in/processing/");
    expect(await b.text(name, copy!)).toBe("phone\n+14155550101\n+14155550102\n");
  }, 30_000);

  it("an upload deleted after it was listed is gone, not an error", async () => {
    const name = await b.bucket();
    const w = worker(`s3://${name}/in/`);
    await b.put(name, "in/leads.csv", "phone\n+14155550100\n");
    const [a] = await arrivals(w);
    await b.remove(name, "in/leads.csv");
    expect(await admit(w, a!, admitter(w))).toMatchObject({
      kind: "ignored",
      reason: expect.stringContaining("gone"),
    });
  });

  it("temporary names (.part) and hidden files are never reported; other files are, to be told of", async () => {
    const name = await b.bucket();
    const w = worker(`s3://${name}/in/`);
    await b.put(name, "in/leads.csv.part", "phone\n");
    await b.put(name, "in/.hidden.csv", "phone\n");
    await b.put(name, "in/notes.pdf", "%PDF");
    await b.put(name, "in/sub/deeper.csv", "phone\n");
    expect((await arrivals(w)).map((a) => a.name)).toEqual(["notes.pdf"]);
  });

  it("a bucket that is not there: its listing fails with a clear error naming it", async () => {
    const w = worker("s3://vcw-no-such-bucket-here/in/");
    const listing = (async () => {
      for await (const _ of w.list("inbox")) break;
    })();
    await expect(listing).rejects.toThrow(
      /list s3:\/\/vcw-no-such-bucket-here\/in\/: the bucket does not exist at http:\/\/127\.0\.0\.1:\d+ \(NoSuchBucket\)/,
    );
  });

  it("a listing follows every page, and 1,500 objects in done/ cost the scan nothing: one request, none of them read", async () => {
    const name = await b.bucket();
    for (let i = 0; i < 1_500; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, j) => b.put(name, `in/done/${i + j}.csv`, "x")));
    for (let i = 0; i < 1_100; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, j) => b.put(name, `in/w${i + j}.csv`, "x")));
    const proxy = await startS3Proxy(b.s3.endpoint);
    try {
      const w = worker(`s3://${name}/in/`, keys(), proxy.endpoint);
      let listed = 0;
      for await (const _ of w.list("inbox")) listed += 1;
      expect(listed).toBe(1_100);
      // Two pages of the inbox (S3 gives 1,000 keys a page); done/ is one common prefix of them.
      expect(proxy.seen.map((r) => r.method)).toEqual(["GET", "GET"]);
      expect(proxy.seen.every((r) => r.url.includes("delimiter=%2F") && r.url.includes("prefix=in%2F"))).toBe(
        true,
      );
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("a 503 SlowDown storm: calls back off and go through; a storm that outlasts the retries is a clear error", async () => {
    const name = await b.bucket();
    await b.put(name, "in/leads.csv", "phone\n+14155550100\n");
    let slowDowns = 3;
    const proxy = await startS3Proxy(b.s3.endpoint, () =>
      slowDowns-- > 0 ? { status: 503, code: "SlowDown" } : undefined,
    );
    try {
      const w = worker(`s3://${name}/in/`, keys(), proxy.endpoint);
      expect(await w.readText("inbox", "leads.csv")).toBe("phone\n+14155550100\n");
      expect(proxy.seen).toHaveLength(4);
      slowDowns = 100;
      await expect(w.readText("inbox", "leads.csv")).rejects.toThrow(
        /read s3:\/\/.*\/in\/leads\.csv: the store kept asking vcw to slow down \(SlowDown\)/,
      );
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("a download cut short is taken up again from where it stopped (a ranged GET), on the same upload", async () => {
    const name = await b.bucket();
    const body = Buffer.from(`phone\n${"+14155550100\n".repeat(200_000)}`);
    await b.put(name, "in/processing/big.csv", body);
    let cut = true;
    const proxy = await startS3Proxy(b.s3.endpoint);
    // A second proxy in front that drops the first body half-way.
    const { createServer, request } = await import("node:http");
    const front = createServer((req, res) => {
      const up = request(
        `${proxy.endpoint}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          let sent = 0;
          answer.on("data", (chunk: Buffer) => {
            sent += chunk.length;
            res.write(chunk);
            if (cut && sent > body.length / 2) {
              cut = false;
              res.destroy();
              answer.destroy();
            }
          });
          answer.on("end", () => res.end());
        },
      );
      req.pipe(up);
    });
    await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
    try {
      const port = (front.address() as { port: number }).port;
      const w = worker(`s3://${name}/in/`, keys(), `http://127.0.0.1:${port}`);
      const copy = await w.local("processing", "big.csv");
      const { createHash } = await import("node:crypto");
      expect(copy?.sha256).toBe(createHash("sha256").update(body).digest("hex"));
      const ranges = proxy.seen.filter((r) => r.method === "GET");
      expect(ranges.length).toBeGreaterThanOrEqual(2);
      await copy?.release();
    } finally {
      front.closeAllConnections();
      front.close();
      await proxy.close();
    }
  }, 60_000);

  it("an address that is not one is said so", () => {
    expect(parseBucketAddress("s3://Bad_Bucket/x")).toMatchObject({
      problem: expect.stringContaining("not a bucket name"),
    });
    expect(parseBucketAddress("s3://good-bucket/leads")).toEqual({ bucket: "good-bucket", prefix: "leads/" });
  });
});
