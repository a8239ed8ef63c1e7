{{LUA_NOW_MS}}
{{PARSE_CLAIM}}
for i = 4, #ARGV do redis.call('HSET', KEYS[1], ARGV[i], ARGV[3]) end
if redis.call('HEXISTS', KEYS[1], '{{SEEDED}}') == 0 then return -1 end
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v then return 0 end
local owner = parse_claim(v)
if owner ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], 'p|' .. ARGV[2] .. '|' .. now_ms .. '|' .. now_ms)
return 1
