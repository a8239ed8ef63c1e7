import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Redis that tests use (see global-setup.ts). */
    redisUrl: string;
  }
}
