import { type CampaignRegistry, storedCampaignOf } from "./campaign-registry.ts";
import { type StopStore, stopFieldsOf } from "./stop-store.ts";

type Methods = Record<string, unknown>;

/**
 * The campaign store and stop store as the stops after a poll use them, campaign `id`'s meta hash
 * read once: the campaign, its stop record, an operator's request and its window's close are fields
 * of that one hash, which those stops read up to seven times a poll, a round trip each. Any other
 * call through either store (every write among them) drops what was read: the next read reads again.
 * Start it after the poll's commit: a read before it would be served afterwards.
 */
export function metaReadOnce<
  S extends Pick<CampaignRegistry, "get" | "metaOf">,
  T extends Pick<StopStore, "get" | "requested" | "callUntil">,
>(store: S, stops: T, id: string): { store: S; stops: T } {
  let read: Promise<Record<string, string>> | undefined;
  const meta = () =>
    (read ??= store.metaOf(id).catch((error: unknown) => {
      read = undefined;
      throw error;
    }));
  const served = async <R>(pick: (h: Record<string, string>) => R) => pick(await meta());
  const through = <O>(target: O, reads: Record<string, () => Promise<unknown>>): O => {
    const out: Methods = {};
    for (const [name, value] of Object.entries(target as Methods)) {
      if (typeof value !== "function") out[name] = value;
      else
        out[name] = (...args: unknown[]) => {
          const serve = reads[name];
          if (serve && args[0] === id && args.length === 1) return serve();
          read = undefined;
          return value(...args);
        };
    }
    return out as O;
  };
  return {
    store: through(store, { get: () => served(storedCampaignOf) }),
    stops: through(stops, {
      get: () => served(stopFieldsOf.stop),
      requested: () => served(stopFieldsOf.requested),
      callUntil: () => served(stopFieldsOf.callUntil),
    }),
  };
}
