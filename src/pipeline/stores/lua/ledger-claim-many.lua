{{LUA_NOW_MS}}
{{PARSE_CLAIM}}
local out = {}
for i = 3, #ARGV do
  local v = redis.call('HGET', KEYS[1], ARGV[i])
  if not v then
    redis.call('HSET', KEYS[1], ARGV[i], 'p|' .. ARGV[1] .. '|' .. now_ms .. '|')
    out[#out + 1] = 'claimed'
  elseif string.sub(v, 1, 1) == 'd' then
    out[#out + 1] = 'done'
  else
    local owner, ts, sent = parse_claim(v)
    if owner == ARGV[1] and not sent then out[#out + 1] = 'claimed'
    elseif now_ms - ts > tonumber(ARGV[2]) then out[#out + 1] = 'stale'
    else out[#out + 1] = 'busy' end
  end
end
return out
