{{LUA_NOW_MS}}
{{PARSE_CLAIM}}
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then
  redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. now_ms .. '|')
  return 1
end
local owner, ts, sent = parse_claim(v)
if not owner then return 0 end
if owner ~= ARGV[2] and now_ms - ts <= tonumber(ARGV[3]) then return 0 end
if sent and sent + tonumber(ARGV[5]) > tonumber(ARGV[4]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. now_ms .. '|')
return 1
