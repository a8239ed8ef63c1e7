/**
 * `npm run bench [-- NAME ...]`: runs the named benchmarks, or all of them. Each prints ratios
 * measured in one run (ours vs a baseline, ours vs a bound), since machines are noisy.
 */
const benchmarks: Record<string, () => Promise<{ run: () => Promise<void> }>> = {
  client: () => import("./client-throughput.ts"),
  ingest: () => import("./ingest.ts"),
  import: () => import("./import.ts"),
  poll: () => import("./poll.ts"),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark(s): ${unknown.join(", ")}; available: ${Object.keys(benchmarks).join(", ")}`,
  );
  process.exit(2);
}
for (const name of wanted.length > 0 ? wanted : Object.keys(benchmarks)) {
  console.log(`\n=== ${name} ===`);
  const { run } = await benchmarks[name]!();
  await run();
}
