#!/usr/bin/env node
// The image's HEALTHCHECK: GET /livez of this container's daemon, from inside it (slim images have
// no curl). Exit 0 when it answers 200 within 3 s. With VCW_HTTP_ADDR=off there is nothing to ask.
const addr = (process.env.VCW_HTTP_ADDR || "127.0.0.1:9400").trim();
if (/^(off|none|false|no)$/i.test(addr)) process.exit(0);
const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(addr) || /^()()(\d+)$/.exec(addr);
if (!m) {
  console.error(`healthcheck: VCW_HTTP_ADDR "${addr}" is not host:port`);
  process.exit(1);
}
let host = m[1] || m[2] || "127.0.0.1";
// A wildcard address is reached on loopback.
if (host === "0.0.0.0") host = "127.0.0.1";
if (host === "::") host = "::1";
const url = `http://${host.includes(":") ? `[${host}]` : host}:${m[3]}/livez`;
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(3_000) });
  if (response.ok) process.exit(0);
  console.error(`healthcheck: ${url} answered ${response.status}`);
} catch (error) {
  console.error(`healthcheck: ${url}: ${error instanceof Error ? error.message : error}`);
}
process.exit(1);
