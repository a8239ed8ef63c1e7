import { readFileSync } from "node:fs";
import type { RedisClient } from "./redis.ts";

type Arg = string | number;

/**
 * A Lua script registered once per connection as a command (ioredis `defineCommand`), so it is
 * sent by SHA (EVALSHA) and the text travels only when Redis doesn't know it yet.
 */
export function defineScript<R>(name: string, numberOfKeys: number, lua: string) {
  const command = `vcw_${name}`;
  const registered = new WeakSet<RedisClient>();
  return (redis: RedisClient, keys: readonly string[], args: readonly Arg[] = []): Promise<R> => {
    if (keys.length !== numberOfKeys) throw new Error(`script ${name} takes ${numberOfKeys} key(s)`);
    if (!registered.has(redis)) {
      if (!(command in redis)) redis.defineCommand(command, { numberOfKeys, lua });
      registered.add(redis);
    }
    const run = (redis as unknown as Record<string, (...a: Arg[]) => Promise<R>>)[command]!;
    return run.call(redis, ...keys, ...args.map(String));
  };
}

/**
 * A script's text from its `.lua` file beside the module that runs it (`base`: its
 * `import.meta.url`), read once, at module load: as BullMQ keeps its `commands/`. Each `{{NAME}}` in
 * it is `values[NAME]` (a constant of the module, or a shared piece such as LUA_NOW_MS). The build
 * copies every `.lua` file into dist (scripts/copy-assets.mjs).
 */
export function luaFile(base: string, name: string, values: Record<string, string | number> = {}): string {
  return readFileSync(new URL(name, base), "utf8").replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`${name}: no value for {{${key}}}`);
    return String(value);
  });
}

/** Lua: the Redis server's clock in ms (scripts are replicated by effect, so TIME is allowed). */
export const LUA_NOW_MS = luaFile(import.meta.url, "lua/now-ms.lua").trimEnd();
