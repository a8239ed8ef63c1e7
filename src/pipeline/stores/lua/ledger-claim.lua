{{LUA_NOW_MS}}
{{PARSE_CLAIM}}
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then
  redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. now_ms .. '|')
  return 'claimed'
end
if string.sub(v, 1, 1) == 'd' then return 'done' end
local owner, ts, sent = parse_claim(v)
if owner == ARGV[2] and not sent then return 'claimed' end
if now_ms - ts > tonumber(ARGV[3]) then return 'stale' end
return 'busy'
