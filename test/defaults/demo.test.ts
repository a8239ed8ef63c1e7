import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  cleanEnv,
  cloneOfCheckout,
  freshMachineRuns,
  onFreshMachine,
  runAsUser,
} from "../support/clean-env.ts";
import { packedInstall } from "../support/packed.ts";

/** A demo run to its end as a user runs it: exit code, wall time, output. */
async function demoIn(cwd: string, command: string[]) {
  const started = performance.now();
  const p = runAsUser(onFreshMachine(command), cwd, cleanEnv());
  const code = await p.exited;
  return { code, seconds: (performance.now() - started) / 1000, output: p.output() };
}

/** What a finished demo printed: the summary and a results CSV with its header. */
function expectFinished(d: { code: number | null; output: string }, cwd: string) {
  expect(d.code, d.output).toBe(0);
  expect(d.output).toMatch(/Contacts 6; calls by status:/);
  const csv = /results CSV: (.+\.results\.csv)$/m.exec(d.output)![1]!;
  expect(readFileSync(join(cwd, csv), "utf8").split("\n")[0]).toContain("phone");
}

/**
 * README's one-go path, nothing set (issue 40: both failed every time, "the demo did not finish
 * within a minute", after about 63 s: the settle time, 60 s, outlasted the demo's minute).
 */
describe.skipIf(!freshMachineRuns())("the demo, with nothing set", () => {
  it("`npm run demo` in a fresh clone prints the summary, in seconds", async () => {
    const clone = cloneOfCheckout();
    const demo = await demoIn(clone, ["npm", "run", "demo"]);
    expectFinished(demo, clone);
    expect(demo.seconds).toBeLessThan(30);
  }, 120_000);

  it("`npx vcw demo` from the packed tarball, in an empty project, prints the summary with the package's sample", async () => {
    const { consumer } = await packedInstall();
    const demo = await demoIn(consumer, ["npx", "--no", "--", "vcw", "demo"]);
    expect(demo.output).toContain("dropped jobs/samples/example-leads.csv into .vcw/demo/inbox");
    expectFinished(demo, consumer);
    expect(demo.seconds).toBeLessThan(30);
  }, 600_000);
});
