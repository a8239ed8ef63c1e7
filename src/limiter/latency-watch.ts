/**
 * Says when latency has risen well above its usual level: the service slowing down before it
 * starts refusing. Pure; an exponentially weighted average against the lowest average seen.
 */
export class LatencyWatch {
  private average: number | undefined;
  private floor = Number.POSITIVE_INFINITY;
  private samples = 0;

  constructor(
    private readonly factor: number,
    /** Below this many ms nothing counts as slow, whatever the ratio. */
    private readonly slackMs = 50,
    private readonly weight = 0.1,
  ) {}

  /** Adds a sample; true when the average is now `factor` times the floor (and past the slack). */
  add(latencyMs: number): boolean {
    this.average =
      this.average === undefined ? latencyMs : this.average + this.weight * (latencyMs - this.average);
    this.samples += 1;
    if (this.samples >= 20) this.floor = Math.min(this.floor, this.average);
    if (this.factor <= 0 || !Number.isFinite(this.floor)) return false;
    return this.average > this.floor * this.factor && this.average - this.floor > this.slackMs;
  }
}
