import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The Redis that tests use (see global-setup.ts). */
    redisUrl: string;
    /** A Redis Cluster of three masters, as `host:port,...` (REDIS_CLUSTER_NODES). */
    clusterNodes: string;
    /** The suite's S3-compatible server (see s3-server.ts). */
    s3: { endpoint: string; accessKeyId: string; secretAccessKey: string; kind: "minio" | "s3rver" };
  }
}
