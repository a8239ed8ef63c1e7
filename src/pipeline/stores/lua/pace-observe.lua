local field = 'c:' .. ARGV[1]
local ended, pending, version, now = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local prev = redis.call('HGET', KEYS[1], field)
if prev then
  local at0, pending0, version0 = string.match(prev, '^([^,]+),([^,]+),([^,]+)$')
  if version <= tonumber(version0) then return 0 end
  if tonumber(pending0) > 0 or ended > 0 then
    local gap = math.min(math.max(now - tonumber(at0), 0), {{MAX_GAP_MS}})
    local decay = math.pow(0.5, gap / {{HALF_LIFE_MS}})
    local e = tonumber(redis.call('HGET', KEYS[1], 'ended') or '0') * decay + ended
    local b = tonumber(redis.call('HGET', KEYS[1], 'busyMs') or '0') * decay + gap
    redis.call('HSET', KEYS[1], 'ended', tostring(e), 'busyMs', tostring(b))
  end
end
if pending > 0 then redis.call('HSET', KEYS[1], field, now .. ',' .. pending .. ',' .. version)
else redis.call('HDEL', KEYS[1], field) end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 1
