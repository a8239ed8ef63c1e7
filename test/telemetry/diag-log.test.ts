import { describe, expect, it } from "vitest";
import { diagLog, type TraceLog } from "../../src/telemetry/diag-log.ts";

function capture(): { log: TraceLog; lines: { level: string; o: object; msg: string }[] } {
  const lines: { level: string; o: object; msg: string }[] = [];
  const at = (level: string) => (o: object, msg: string) => lines.push({ level, o, msg });
  return { log: { error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug") }, lines };
}

describe("OpenTelemetry's diagnostics as vcw log lines", () => {
  it("an error handed over as a JSON stack becomes its message and code, masked, once a minute", () => {
    const { log, lines } = capture();
    let now = 0;
    const diag = diagLog(log, ["s3cret-token-value"], () => now);
    const stack = JSON.stringify({
      stack: "Error: connect ECONNREFUSED 127.0.0.1:1\n    at TCPConnectWrap.afterConnect (node:net:1638:16)",
      message: "connect ECONNREFUSED 127.0.0.1:1 (+14155550123, s3cret-token-value)",
      code: "ECONNREFUSED",
      name: "Error",
    });
    for (let i = 0; i < 5; i++) {
      diag.error(stack);
      now += 5_000;
    }
    now = 61_000;
    diag.error(stack);
    expect(lines).toHaveLength(2);
    expect(lines[0]!.level).toBe("warn");
    expect(lines[0]!.o).toEqual({ component: "traces", code: "ECONNREFUSED" });
    expect(lines[0]!.msg).toBe("traces: connect ECONNREFUSED 127.0.0.1:1 (+14•••••••23, [redacted])");
    expect(lines[0]!.msg).not.toContain("4155550123");
    expect(lines[0]!.msg).not.toContain("s3cret-token-value");
    expect(JSON.stringify(lines)).not.toContain("at TCPConnectWrap");
    expect(lines[1]!.o).toEqual({ component: "traces", code: "ECONNREFUSED", repeated: 4 });
  });

  it("plain messages keep their words; info and below are debug", () => {
    const { log, lines } = capture();
    const diag = diagLog(log, []);
    diag.warn("unknown propagator from OTEL_PROPAGATORS:", "b4");
    diag.info("Export retry time 5000ms exceeds remaining timeout");
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ["warn", "traces: unknown propagator from OTEL_PROPAGATORS: b4"],
      ["debug", "traces: Export retry time 5000ms exceeds remaining timeout"],
    ]);
  });
});
