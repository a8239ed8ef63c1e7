import type { ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli, stopCli } from "../support/cli.ts";
import { API_KEY, DIALER_TOKEN, validDialer } from "../support/fixtures.ts";
import { sendTrickle, startHttpServer } from "../support/http-server.ts";

describe("vcw simulator and vcw api", () => {
  let child: ChildProcess;
  let url: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const started = await startCli(["simulator", "--port", "0", "--api-key", API_KEY, "--seed", "3"]);
    child = started.child;
    url = started.firstLine;
    env = { VCS_BASE_URL: url, VCS_API_KEY: API_KEY };
  });
  afterAll(async () => {
    await stopCli(child);
  });

  it("the simulator prints its base URL when ready", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
  });

  it("vcw api calls an operation and prints the JSON result", async () => {
    const created = await runCli(["api", "segments.create", "--data", '{"name":"From the CLI"}'], env);
    expect(created.code).toBe(0);
    const segment = JSON.parse(created.stdout);
    expect(segment).toMatchObject({ name: "From the CLI", description: "" });

    const dir = mkdtempSync(join(tmpdir(), "vcw-cli-"));
    writeFileSync(join(dir, "contact.json"), JSON.stringify({ phone: "+14155550123", first_name: "Ana" }));
    const added = await runCli(
      ["api", "contacts.create", "--id", segment.id, "--data", `@${join(dir, "contact.json")}`],
      env,
    );
    expect(JSON.parse(added.stdout)).toEqual({ message: "Contact created successfully" });

    const listed = await runCli(["api", "contacts.list", "--id", segment.id], env);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ phone: "+14155550123", first_name: "Ana" }),
    ]);
  });

  it("a dialer created through the CLI does not print its secret", async () => {
    const created = await runCli(["api", "dialers.create", "--data", JSON.stringify(validDialer())], env);
    expect(created.code).toBe(0);
    expect(created.stdout + created.stderr).not.toContain(DIALER_TOKEN);
  });

  it.each([
    [
      ["api", "segments.create", "--data", '{"name":""}'],
      2,
      /Invalid request for segments\.create: name must not be empty/,
    ],
    [["api", "contacts.list"], 2, /contacts\.list needs --id \(the segment identifier\)/],
    [["api", "segments.create"], 2, /segments\.create needs --data/],
    [["api", "segments.create", "--data", "{oops"], 2, /--data is not valid JSON/],
    [["api", "nothing.here"], 2, /Unknown operation "nothing\.here"/],
    [
      ["api", "contacts.list", "--id", "missing"],
      1,
      /contacts\.list failed with HTTP 404: id: no segment with id missing/,
    ],
  ])("vcw %j exits %i with a clear message", async (args, code, message) => {
    const result = await runCli(args as string[], env);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
  });

  it("a wrong key is reported without printing the key", async () => {
    const result = await runCli(["api", "segments.list"], { ...env, VCS_API_KEY: "wrong-key-123" });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/HTTP 401: missing or invalid x-api-key header/);
    expect(result.stderr).not.toContain("wrong-key-123");
  });

  it("`vcw api` with --timeout-ms ends on a trickling body", async () => {
    const trickling = await startHttpServer((_req, res) => sendTrickle(res, 200, { everyMs: 100 }));
    try {
      const started = performance.now();
      const result = await runCli(
        ["api", "contacts.list", "--id", "s1", "--base-url", trickling.url, "--timeout-ms", "300"],
        env,
        15_000,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/contacts\.list failed: timed out after 1200 ms/);
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      await trickling.close();
    }
  });

  it("the simulator refuses to start without an API key", async () => {
    const result = await runCli(["simulator", "--port", "0"], { VCS_API_KEY: "" });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/needs an API key: pass --api-key KEY or set VCS_API_KEY/);
  });

  it("rejects a bad flag value", async () => {
    const result = await runCli(["simulator", "--error-rate", "2", "--api-key", "k"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/--error-rate.*expected a share between 0 and 1, got "2"/);
  });
});
