import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Daemons the tests spawn inherit this: none binds 127.0.0.1:9400, where a developer's may run.
    // Campaigns start at once unless a test asks for the settle time (VCW_SETTLE_MS, 60 s by default).
    env: { VCW_HTTP_ADDR: "off", VCW_SETTLE_MS: "0" },
  },
});
