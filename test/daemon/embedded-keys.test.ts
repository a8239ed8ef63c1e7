import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.ts";
import { resolveSettings } from "../../src/config/settings.ts";
import { type CallingService, callingService } from "../../src/daemon/calling-service.ts";
import { waitFor } from "../support/daemon.ts";
import { tempDir } from "../support/files.ts";

const quiet = { info() {}, warn() {} };

/** The service vcw finds with `env` alone (a fresh home each time), used and closed. */
async function withService<T>(env: NodeJS.ProcessEnv, use: (s: CallingService) => Promise<T>): Promise<T> {
  const service = await callingService(
    resolveSettings({ VCW_HOME: tempDir("vcw-keys-"), ...env }),
    quiet,
    "join-or-start",
  );
  try {
    return await use(service);
  } finally {
    await service.close();
  }
}

/** How many segments one create sent twice with the same key made: 1 where keys are honoured. */
async function segmentsMadeByTwoSends(service: CallingService): Promise<number> {
  const client = createClient({ baseUrl: service.url, apiKey: service.apiKey, idempotencyKeys: true });
  for (let i = 0; i < 2; i++) await client.segments.create({ name: "twice" }, { idempotencyKey: "same-key" });
  return (await client.segments.list()).filter((s) => s.name === "twice").length;
}

/**
 * Issue 40 item 2: vcw's own simulator honours idempotency keys, and vcw knows it runs its own, so
 * the embedded default sends keys (no settle wait). One place decides: callingService.
 */
describe("idempotency keys decided by the calling service", () => {
  it("are on for the embedded simulator by default, which honours them", async () => {
    await withService({}, async (s) => {
      expect(s.idempotencyKeys).toBe(true);
      expect(await segmentsMadeByTwoSends(s)).toBe(1);
    });
  });

  it("are off with VCW_IDEMPOTENCY_KEYS=off: the simulator then ignores them, as the spec's service does", async () => {
    await withService({ VCW_IDEMPOTENCY_KEYS: "off" }, async (s) => {
      expect(s.idempotencyKeys).toBe(false);
      expect(await segmentsMadeByTwoSends(s)).toBe(2);
    });
  });

  it("are off for a service of one's own (VCS_BASE_URL) unless asked for", async () => {
    const own = { VCS_BASE_URL: "http://127.0.0.1:9", VCS_API_KEY: "k" };
    await withService(own, async (s) => expect(s.idempotencyKeys).toBe(false));
    await withService({ ...own, VCW_IDEMPOTENCY_KEYS: "on" }, async (s) =>
      expect(s.idempotencyKeys).toBe(true),
    );
  });

  it("follow a joined simulator's record: keys only where the process that runs it honours them", async () => {
    const child = fileURLToPath(new URL("../support/embedded-simulator-child.ts", import.meta.url));
    const runTs = fileURLToPath(new URL("../../bin/run-ts.js", import.meta.url));
    for (const keys of [true, false]) {
      const home = tempDir("vcw-keys-joined-");
      const args = [runTs, child, home, ...(keys ? ["keys"] : [])];
      const p = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
      let out = "";
      p.stdout.on("data", (b: Buffer) => {
        out += b.toString();
      });
      try {
        await waitFor(() => (out.includes("started") ? true : undefined), 30_000, "the child's simulator");
        const settings = resolveSettings({ VCW_HOME: home, VCS_API_KEY: "race-key" });
        const joined = await callingService(settings, quiet, "join");
        expect(joined?.source).toMatch(/^embedded simulator of pid/);
        expect(joined?.idempotencyKeys).toBe(keys);
      } finally {
        p.stdin.end();
        await new Promise((r) => p.once("exit", r));
      }
    }
  });
});
