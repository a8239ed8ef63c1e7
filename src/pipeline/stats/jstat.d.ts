/** The part of jstat (no types of its own; CommonJS, so its default export) that pipeline/stats/ reads. */
declare module "jstat" {
  const jstat: {
    jStat: {
      gammaln(x: number): number;
      lowRegGamma(a: number, x: number): number;
      normal: { inv(p: number, mean: number, sd: number): number };
    };
  };
  export default jstat;
}
