if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -3 end return redis.call('PTTL', KEYS[1])
