import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { NO_FAULTS } from "../../src/simulator/faults.ts";
import { API_KEY, DIALER_TOKEN, SIP_PASSWORD, validDialer, validSipDialer } from "../support/fixtures.ts";
import { sendJson, startHttpServer } from "../support/http-server.ts";
import { captureLogs } from "../support/log-capture.ts";
import { testClient, useSimulator } from "../support/simulator.ts";

const SECRETS = [API_KEY, DIALER_TOKEN, SIP_PASSWORD];

describe("secrets never reach a log line or an error", () => {
  const t = useSimulator();

  it("across successes, validation errors, retries, ambiguous writes, timeouts and echoing services", async () => {
    const logs = captureLogs();
    const client = testClient(t.sim, { logger: logs.logger });
    const errors: unknown[] = [];
    const attempt = async (run: () => Promise<unknown>) => {
      try {
        return await run();
      } catch (error) {
        errors.push(error);
        logs.logger.error({ err: error }, "operation failed");
        return undefined;
      }
    };

    const dialer = (await attempt(() => client.dialers.create(validDialer()))) as { id: string };
    const sip = await attempt(() => client.dialers.create(validSipDialer()));
    expect(JSON.stringify([dialer, sip])).not.toContain(DIALER_TOKEN);

    await attempt(() => client.dialers.create(validDialer({ phone_number: "nope" })));
    await attempt(() => client.dialers.create(validSipDialer({ sip_termination_uri: "" })));
    t.sim.setFaults({ errorRate: 1 });
    await attempt(() => client.dialers.create(validSipDialer()));
    await attempt(() => client.dialers.update(dialer.id, { auth_token: DIALER_TOKEN }));
    t.sim.setFaults({ commitThenFailRate: 1 });
    await attempt(() => client.dialers.create(validSipDialer()));
    t.sim.setFaults({ latencyMs: 200 });
    await attempt(() =>
      testClient(t.sim, { logger: logs.logger, timeoutMs: 20 }).dialers.create(validDialer()),
    );
    t.sim.setFaults(NO_FAULTS);
    await attempt(() => client.dialers.update("unknown", { sip_trunk_password: SIP_PASSWORD }));

    // A service that echoes the secrets back in its error message.
    const echo = await startHttpServer((_req, res, body) =>
      sendJson(res, 400, { error: 400, message: `bad credentials in ${body} for key ${API_KEY}` }),
    );
    const echoing = testClient(t.sim, { baseUrl: echo.url, logger: logs.logger });
    await attempt(() => echoing.dialers.create(validSipDialer()));
    await echo.close();

    expect(errors.length).toBeGreaterThanOrEqual(8);
    const everything = [
      logs.text(),
      ...errors.map((e) => `${String(e)} ${JSON.stringify(e)} ${inspect(e, { depth: 6, showHidden: true })}`),
    ].join("\n");
    expect(logs.text()).toContain("api request");
    expect(everything).toContain("[redacted]");
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
  });

  it("the log redaction paths cover secret fields that callers put in log objects", () => {
    const logs = captureLogs();
    logs.logger.info({
      apiKey: API_KEY,
      dialer: { auth_token: DIALER_TOKEN },
      req: { headers: { "x-api-key": API_KEY } },
    });
    logs.logger.info({ body: { sip_trunk_password: SIP_PASSWORD } });
    for (const secret of SECRETS) expect(logs.text()).not.toContain(secret);
  });
});
