{{LUA_NOW_MS}}
{{PARSE_CLAIM}}
local wait = 0
for i = 2, #ARGV do
  local v = redis.call('HGET', KEYS[1], ARGV[i])
  if v and string.sub(v, 1, 1) == 'p' then
    local _, _, sent = parse_claim(v)
    if sent then wait = math.max(wait, sent + tonumber(ARGV[1]) - now_ms) end
  end
end
return wait
