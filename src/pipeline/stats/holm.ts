/**
 * Holm's step-down correction (Holm 1979, "A simple sequentially rejective multiple test
 * procedure"): the family's chance of any false rejection stays at most alpha. With always-valid
 * p-values it holds at every look too: a true hypothesis is rejected at some look only if its
 * p-value ever falls under alpha / m0, which each does with chance at most alpha / m0.
 */
export function holmRejects(pValues: readonly number[], alpha: number): boolean[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const rejected = new Array<boolean>(m).fill(false);
  for (let j = 0; j < m; j += 1) {
    const { p, i } = order[j]!;
    if (p > alpha / (m - j)) break;
    rejected[i] = true;
  }
  return rejected;
}
