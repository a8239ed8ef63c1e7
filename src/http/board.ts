import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { FastifyAdapter } from "@bull-board/fastify";
import type { FastifyInstance } from "fastify";
import { maskPhonesDeep as maskDeep, maskPhonesIn } from "../lib/mask-phone.ts";
import type { Queues } from "../queue/queues.ts";

export const BOARD_PATH = "/admin/queues";

/**
 * BullMQ's adapter whose jobs show with phone-like text masked in every field Bull Board shows
 * (failed reasons, stack traces, names, options, data, results, logs); the id stays, since the
 * board acts on jobs by it.
 */
class MaskedAdapter extends BullMQAdapter {
  override async getJob(id: string) {
    return masked(await super.getJob(id));
  }
  override async getJobs(...args: Parameters<BullMQAdapter["getJobs"]>) {
    return (await super.getJobs(...args)).map(masked);
  }
  override async getJobLogs(id: string) {
    return (await super.getJobLogs(id)).map((line) => maskPhonesIn(line));
  }
}

/** The job with its JSON view (all the board reads of it) masked; its methods (retry, remove) untouched. */
function masked<J extends { toJSON(): object } | undefined | null>(job: J): J {
  if (!job) return job;
  const json = job.toJSON.bind(job);
  job.toJSON = () => {
    const j = json() as { id?: unknown };
    return { ...(maskDeep(j) as object), id: j.id };
  };
  return job;
}

/**
 * Bull Board on every queue. It can retry, clean and remove jobs only for an authenticated operator
 * (a token is set, and the server asks for it on every path); without a token it is read-only,
 * since anyone on the machine may reach a loopback port. Everything shown of a job has its
 * phone-like text masked.
 */
export async function installBoard(app: FastifyInstance, queues: Queues, writable: boolean): Promise<void> {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BOARD_PATH);
  const adapters = Object.entries(queues).map(([kind, queue]) => {
    const adapter = new MaskedAdapter(queue, { readOnlyMode: !writable, displayName: kind });
    adapter.setFormatter("data", maskDeep);
    adapter.setFormatter("returnValue", maskDeep);
    return adapter;
  });
  createBullBoard({
    queues: adapters,
    serverAdapter,
    options: { uiConfig: { boardTitle: writable ? "vcw queues" : "vcw queues (read-only)" } },
  });
  // Its own plugin scope: bull-board sets an error handler and view engine for its routes only.
  await app.register(serverAdapter.registerPlugin(), { prefix: BOARD_PATH });
}
