/**
 * Fault points for the chaos tests (test/chaos/): `VCW_FAILPOINTS="campaign.before-create=stop@1"`
 * makes the process SIGSTOP itself the first time it passes `campaign.before-create`, so a test can
 * hold it exactly there (and SIGCONT it). Unset, a fault point costs one map lookup. (The format is
 * issue 28's other half's, H28a: its points join these when both are merged.)
 */
const points = parse(process.env.VCW_FAILPOINTS ?? "");
const passed = new Map<string, number>();

/** Right before the create of a file's campaign, a follow-up's, a window close's hand-back's. */
export type FailpointName = "campaign.before-create" | "follow-up.before-create" | "hand-back.before-create";

export function failpoint(name: FailpointName): void {
  const at = points.get(name);
  if (at === undefined) return;
  const n = (passed.get(name) ?? 0) + 1;
  passed.set(name, n);
  if (n === at) process.kill(process.pid, "SIGSTOP");
}

function parse(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const part of text.split(",").filter(Boolean)) {
    const m = /^([\w.-]+)=stop@(\d+)$/.exec(part.trim());
    if (!m) throw new Error(`VCW_FAILPOINTS: "${part}" is not name=stop@N`);
    map.set(m[1]!, Number(m[2]));
  }
  return map;
}
