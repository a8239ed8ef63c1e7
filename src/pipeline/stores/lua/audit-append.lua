local added = 0
for i = 3, #ARGV, 2 do
  if redis.call('HSETNX', KEYS[2], ARGV[i], '') == 1 then
    local id = redis.call('XADD', KEYS[1], 'MINID', '~', ARGV[1], '*', 'd', ARGV[i + 1])
    redis.call('HSET', KEYS[2], ARGV[i], id)
    added = added + 1
  end
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return added
