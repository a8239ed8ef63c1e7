/**
 * Fault points for the chaos tests (test/chaos/): `VCW_FAILPOINTS="send.after-fence=stop@50"` makes
 * the process SIGSTOP itself the 50th time it passes `send.after-fence` (`=stop` alone: the first
 * time), so a test can hold it exactly there and SIGCONT it. Several points: separated by commas.
 * Unset (production), a fault point costs one map lookup.
 */
const points = parse(process.env.VCW_FAILPOINTS ?? "");
const passed = new Map<string, number>();

export type FailpointName =
  | "send.before-fence"
  | "send.after-fence"
  | "campaign.before-create"
  | "follow-up.before-create"
  | "hand-back.before-create"
  /** A start check's or stop's deletes, listed and decided, not yet sent. */
  | "delete.before-send"
  /** A bucket inbox's move: the copy made, the original not yet deleted. */
  | "bucket.after-copy";

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
    const m = /^([\w.-]+)=stop(?:@(\d+))?$/.exec(part.trim());
    if (!m) throw new Error(`VCW_FAILPOINTS: "${part}" is not name=stop or name=stop@N`);
    map.set(m[1]!, Number(m[2] ?? 1));
  }
  return map;
}
