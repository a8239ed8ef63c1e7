import type { FastifyInstance } from "fastify";
import { parseAction } from "../queue/operator/action.ts";
import type { ActionContext } from "../queue/operator/action-context.ts";
import { runAction } from "../queue/operator/run-action.ts";

/**
 * `POST /api/actions`: what an operator does from the page (pause, resume, cancel, stop, retry, re-run,
 * one or many by filter), run by the same code as the CLI. Only for a signed-in operator (a token is
 * set), only once confirmed (`confirmed: true`, what the page's dialog adds), behind the origin and
 * CSRF checks every state-changing request passes (csrf.ts). 200 done, 409 refused with the reason.
 */
export function installActions(app: FastifyInstance, ctx: ActionContext, canAct: boolean): void {
  app.post("/api/actions", async (req, reply) => {
    if (!canAct || !req.operator || req.operator === "local")
      return reply.code(403).send({
        ok: false,
        message: "actions need a signed-in operator: set VCW_HTTP_TOKEN and sign in",
      });
    const { confirmed, ...body } = (req.body ?? {}) as Record<string, unknown>;
    const parsed = parseAction(body);
    if ("error" in parsed) return reply.code(400).send({ ok: false, message: parsed.error });
    if (confirmed !== true)
      return reply
        .code(400)
        .send({ ok: false, message: "not confirmed: send confirmed: true once the operator agreed" });
    const result = await runAction(ctx, parsed.action, req.operator);
    return reply.code(result.ok ? 200 : 409).send(result);
  });
}
