local all = redis.call('ZRANGE', KEYS[1], 0, -1)
local n = 0
for _, m in ipairs(all) do
  if m == ARGV[1] or string.sub(m, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
    n = n + redis.call('ZREM', KEYS[1], m)
  end
end
return n
