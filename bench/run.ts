/**
 * `npm run bench [-- NAME ... [--OPTION ...]]`: runs the named benchmarks, or all of them; options
 * after the names go to each (`poll --entries 1000000 --json`). Each prints ratios measured in one
 * run (ours vs a baseline, ours vs a bound), since machines are noisy.
 */
const benchmarks: Record<string, () => Promise<{ run: (argv: string[]) => Promise<void> }>> = {
  client: () => import("./client-throughput.ts"),
  dashboard: () => import("./dashboard.ts"),
  ingest: () => import("./ingest.ts"),
  "csv-fields": () => import("./csv-fields.ts"),
  import: () => import("./import.ts"),
  "file-campaigns": () => import("./file-campaigns.ts"),
  poll: () => import("./poll.ts"),
  "poll-unchanged": () => import("./poll-unchanged.ts"),
  guardrail: () => import("./guardrail.ts"),
  campaigns: () => import("./campaigns.ts"),
  requests: () => import("./contact-requests.ts"),
  workbooks: () => import("./workbooks.ts"),
  report: () => import("./report.ts"),
  calling: () => import("./calling.ts"),
  chaos: () => import("./chaos.ts"),
  "chaos-campaign": () => import("./chaos-campaign.ts"),
  traces: () => import("./traces.ts"),
  suppress: () => import("./suppress.ts"),
  "consent-gate": () => import("./consent-gate.ts"),
};

const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith("--"));
const wanted = firstOption === -1 ? args : args.slice(0, firstOption);
const options = firstOption === -1 ? [] : args.slice(firstOption);
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
  await run(options);
}
