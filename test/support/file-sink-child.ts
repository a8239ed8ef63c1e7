/**
 * One process delivering to a file sink: `file-sink-child.ts DIR WORKER KEYS...`. Each key is a
 * delivery of the same campaign (its version the key's number); deliveries run four at a
 * time, as the delivery worker runs them. Prints "done" when all are delivered.
 */
import { emptyTotals, summarize } from "../../src/pipeline/model/campaign-totals.ts";
import { fileSink } from "../../src/sinks/file/file-sink.ts";
import { campaignInfo, resultRecord } from "./fixtures.ts";

const [dir, worker, ...keys] = process.argv.slice(2);
const sink = fileSink({ dir: dir! });
const info = campaignInfo({ id: "cmp_shared" });
async function* records() {
  yield resultRecord("+14155550101", { status: "completed", durationSec: 1, transcript: worker! });
}
const queue = [...keys];
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (let key = queue.shift(); key; key = queue.shift()) {
      const payload = summarize(info, emptyTotals(), Number(key.slice(1)), "progress", 0);
      await sink.deliver({ idempotencyKey: key, payload, records });
    }
  }),
);
console.log("done");
