import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { createBucketClient } from "./src/inbox/bucket/bucket-client.ts";

process.env.AWS_ACCESS_KEY_ID = "S3RVER";
process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
const endpoint = "http://127.0.0.1:4599";
const raw = new S3Client({
  endpoint,
  region: "us-east-1",
  forcePathStyle: true,
  credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
});
const B = "hundredk";
if (process.argv[2] === "fill") {
  await raw.send(new CreateBucketCommand({ Bucket: B })).catch(() => undefined);
  const t0 = performance.now();
  for (let i = 0; i < 100_000; i += 100)
    await Promise.all(
      Array.from({ length: 100 }, (_, j) =>
        raw.send(new PutObjectCommand({ Bucket: B, Key: `in/done/${i + j}.csv`, Body: "x" })),
      ),
    );
  for (let i = 0; i < 20; i++)
    await raw.send(new PutObjectCommand({ Bucket: B, Key: `in/new-${i}.csv`, Body: "phone\n" }));
  console.log("filled", Math.round(performance.now() - t0), "ms");
} else {
  const c = createBucketClient({ endpoint, region: "us-east-1", pathStyle: true, scanMs: 1000 });
  for (const prefix of ["in/", "empty/"]) {
    const times = [];
    let n = 0;
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      n = 0;
      for await (const _ of c.list(B, prefix)) n++;
      times.push(performance.now() - t0);
    }
    console.log(prefix, "objects listed", n, "ms per scan", times.map((t) => t.toFixed(1)).join(" "));
  }
  c.close();
}
raw.destroy();
