/**
 * A fault point for chaos tests: `VCW_FAILPOINT=<name>:stop` makes the process stop itself
 * (SIGSTOP) when it reaches `name`, so a test can pause it at that exact moment and resume it
 * with SIGCONT. Several points: separated by commas. Unset (production): nothing happens.
 */
export function failpoint(name: string): void {
  const spec = process.env.VCW_FAILPOINT;
  if (!spec) return;
  for (const point of spec.split(",")) {
    const [at, action] = point.trim().split(":");
    if (at === name && action === "stop") process.kill(process.pid, "SIGSTOP");
  }
}
