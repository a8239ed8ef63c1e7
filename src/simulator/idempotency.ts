import type { FastifyRequest } from "fastify";
import type { Operation } from "../api/operations.ts";

interface Answer {
  status: number;
  body?: unknown;
}

/**
 * Creates made once per `Idempotency-Key` (the simulator's `--idempotency-keys`; the spec has none,
 * docs/spec-gaps.md): a create sent again with a key already seen is answered as the first was and
 * applies nothing. Kept in memory: a restarted simulator forgets its keys.
 */
export function createIdempotencyKeys(enabled: boolean) {
  const answers = new Map<string, Answer>();
  const keyOf = (op: Operation, req: FastifyRequest): string | undefined => {
    if (!enabled || op.effect !== "create") return undefined;
    const key = req.headers["idempotency-key"];
    return typeof key === "string" && key !== "" ? `${op.name}\n${key}` : undefined;
  };
  return {
    /** The answer to replay for this request, if its key was seen. */
    seen: (op: Operation, req: FastifyRequest): Answer | undefined => {
      const key = keyOf(op, req);
      return key === undefined ? undefined : answers.get(key);
    },
    /** Remembers an applied create's answer under its key (called in the same tick as the create). */
    remember(op: Operation, req: FastifyRequest, answer: Answer): void {
      const key = keyOf(op, req);
      if (key !== undefined && answer.status < 400) answers.set(key, answer);
    },
  };
}
