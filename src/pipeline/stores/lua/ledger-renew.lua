{{LUA_NOW_MS}}
{{PARSE_CLAIM}}
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return 0 end
local owner, _, sent = parse_claim(v)
if owner ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. owner .. '|' .. now_ms .. '|' .. (sent or ''))
return 1
