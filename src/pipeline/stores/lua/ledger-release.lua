
{{PARSE_CLAIM}}
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v and string.sub(v, 1, 1) == 'p' and parse_claim(v) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) return 1 end
return 0
