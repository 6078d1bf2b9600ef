"""The state store on Redis, shared by every process that uses the same URL and prefix.

Each read-decide-write step is one Lua script (breakers, token buckets) or a
MULTI transaction (spend), so racing processes never see a half-applied update.
Every key lives under ``key_prefix`` and gets a TTL on every write: a breaker
key outlives its window and cooldown, a bucket the time it takes to refill,
spend its day, a downgrade a day, a cache entry its TTL.

redis-py's asyncio client is bound to the event loop that opened its
connections, and the sync API may run each call on its own loop, so one client
is kept per running loop. Failures of any kind become
``StateStoreUnavailableError`` with the URL's password masked; the fallback store
(``router.state.fallback``) turns them into in-process operation.
"""

from __future__ import annotations

import asyncio
import math
import threading
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from router.errors import ConfigError, StateStoreUnavailableError
from router.redaction import redact, redact_url, scrub_exception
from router.state.base import DECAY_EPOCH_FIELD, DECAY_REBASE, BreakerPolicy, BreakerRecord, Bucket, Window, decay_scale

T = TypeVar("T")

# KEYS[1] breaker hash, KEYS[2] failure list. ARGV: now, cooldown_s, probe_lease_s, ttl_s
_ALLOW = """
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
local now = tonumber(ARGV[1])
local allowed = 1
if state == 'open' then
  if now < tonumber(redis.call('HGET', KEYS[1], 'opened_at')) + tonumber(ARGV[2]) then allowed = 0 end
elseif state == 'half_open' then
  local lease = tonumber(redis.call('HGET', KEYS[1], 'probe_until') or '0')
  if now < lease then allowed = 0 end
end
if allowed == 1 and state ~= 'closed' then
  state = 'half_open'
  redis.call('HSET', KEYS[1], 'state', state, 'probe_until', tostring(now + tonumber(ARGV[3])))
  redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[4]) * 1000))
end
local h = redis.call('HMGET', KEYS[1], 'opened_at', 'probe_until')
return {allowed, state, redis.call('LLEN', KEYS[2]), h[1] or '', h[2] or ''}
"""

# KEYS as above. ARGV: now, failures, window_s, ttl_s
_FAILURE = """
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local ttl = math.ceil(tonumber(ARGV[4]) * 1000)
if state == 'half_open' then
  state = 'open'
  redis.call('HSET', KEYS[1], 'state', state, 'opened_at', ARGV[1])
  redis.call('HDEL', KEYS[1], 'probe_until')
  redis.call('DEL', KEYS[2])
elseif state == 'closed' then
  redis.call('RPUSH', KEYS[2], ARGV[1])
  redis.call('LTRIM', KEYS[2], -limit, -1)
  local recent = 0
  for _, t in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
    if tonumber(t) > now - tonumber(ARGV[3]) then recent = recent + 1 end
  end
  if recent >= limit then
    state = 'open'
    redis.call('HSET', KEYS[1], 'state', state, 'opened_at', ARGV[1])
    redis.call('DEL', KEYS[2])
  else
    redis.call('PEXPIRE', KEYS[2], ttl)
  end
end
if state ~= 'closed' then redis.call('PEXPIRE', KEYS[1], ttl) end
local h = redis.call('HMGET', KEYS[1], 'opened_at', 'probe_until')
return {state, redis.call('LLEN', KEYS[2]), h[1] or '', h[2] or ''}
"""

# KEYS: buckets. ARGV: now, force, then (amount, capacity, per_s, ttl_s) per bucket
_TAKE = """
local now = tonumber(ARGV[1])
local wait = 0
local levels = {}
local stamps = {}
for i, key in ipairs(KEYS) do
  local base = 2 + (i - 1) * 4
  local amount, capacity, rate = tonumber(ARGV[base + 1]), tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3])
  local v = redis.call('HMGET', key, 'level', 'ts')
  local level = tonumber(v[1]) or capacity
  local ts = tonumber(v[2]) or now
  level = math.min(capacity, level + math.max(0, now - ts) * rate)
  levels[i] = level
  stamps[i] = math.max(ts, now)
  local need = math.min(amount, capacity)
  if level < need then wait = math.max(wait, (need - level) / rate) end
end
if wait > 0 and ARGV[2] ~= '1' then return tostring(wait) end
for i, key in ipairs(KEYS) do
  local base = 2 + (i - 1) * 4
  local amount, capacity, rate = tonumber(ARGV[base + 1]), tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3])
  local left = math.min(capacity, levels[i] - amount)
  if left >= capacity then
    redis.call('DEL', key)
  else
    redis.call('HSET', key, 'level', tostring(left), 'ts', tostring(stamps[i]))
    redis.call('PEXPIRE', key, math.ceil(((capacity - left) / rate + 1) * 1000))
  end
end
return '0'
"""

# KEYS: window hashes (slot number -> units). ARGV: now, force, at ('' = now), then (amount, limit, slot_s, slots) each
_WINDOW_TAKE = """
local now = tonumber(ARGV[1])
local force = ARGV[2] == '1'
local at = tonumber(ARGV[3])
local wait = 0
local currents = {}
for i, key in ipairs(KEYS) do
  local base = 3 + (i - 1) * 4
  local amount, limit = tonumber(ARGV[base + 1]), tonumber(ARGV[base + 2])
  local slot_s, slots = tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  local current = math.floor(now / slot_s)
  currents[i] = current
  local fields = redis.call('HGETALL', key)
  local used = 0
  local live = {}
  for j = 1, #fields, 2 do
    local n = tonumber(fields[j])
    if n <= current - slots then
      redis.call('HDEL', key, fields[j])
    else
      local v = tonumber(fields[j + 1])
      used = used + v
      live[#live + 1] = {n, v}
    end
  end
  if not force and used + amount > limit then
    if amount > limit then return 'inf' end
    table.sort(live, function(a, b) return a[1] < b[1] end)
    local w = slots * slot_s
    for _, entry in ipairs(live) do
      used = used - entry[2]
      if used + amount <= limit then
        w = math.max(slot_s * 0.001, (entry[1] + slots) * slot_s - now)
        break
      end
    end
    wait = math.max(wait, w)
  end
end
if wait > 0 then return tostring(wait) end
for i, key in ipairs(KEYS) do
  local base = 3 + (i - 1) * 4
  local amount, slot_s, slots = tonumber(ARGV[base + 1]), tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  local slot = currents[i]
  if at then slot = math.floor(at / slot_s) end
  if slot > currents[i] - slots then
    redis.call('HINCRBYFLOAT', key, tostring(slot), ARGV[base + 1])
    redis.call('PEXPIRE', key, math.ceil((slots + 2) * slot_s * 1000))
  end
end
return '0'
"""

# KEYS: counters. ARGV: start (0-based), ttl_ms. Increments the lowest (first at or after start on ties).
_COUNT_LEAST = """
local n = #KEYS
local best, best_value = nil, nil
for i = 0, n - 1 do
  local index = (tonumber(ARGV[1]) + i) % n
  local value = tonumber(redis.call('GET', KEYS[index + 1]) or '0')
  if best_value == nil or value < best_value then best, best_value = index, value end
end
redis.call('INCRBYFLOAT', KEYS[best + 1], 1)
redis.call('PEXPIRE', KEYS[best + 1], ARGV[2])
return best
"""

# KEYS[1] counter. ARGV: delta, ttl_ms. Never below 0.
_COUNT_ADD = """
local value = tonumber(redis.call('GET', KEYS[1]) or '0') + tonumber(ARGV[1])
if value < 0 then value = 0 end
redis.call('SET', KEYS[1], tostring(value), 'PX', ARGV[2])
return tostring(value)
"""


# KEYS[1] decayed hash. ARGV: at, half_life_s, ttl_ms, rebase exponent, then (field, value) pairs.
# Stored sums are scaled by 2^((at - epoch) / half_life): one HINCRBYFLOAT per field adds an observation.
_DECAY_ADD = """
local at, hl = tonumber(ARGV[1]), tonumber(ARGV[2])
local epoch = tonumber(redis.call('HGET', KEYS[1], '~epoch') or '')
if not epoch then
  epoch = at
  redis.call('HSET', KEYS[1], '~epoch', ARGV[1])
end
local e = (at - epoch) / hl
if e > tonumber(ARGV[4]) then
  local all = redis.call('HGETALL', KEYS[1])
  local shrink = 2 ^ (-e)
  for i = 1, #all, 2 do
    if all[i] ~= '~epoch' then redis.call('HSET', KEYS[1], all[i], string.format('%.17g', tonumber(all[i + 1]) * shrink)) end
  end
  redis.call('HSET', KEYS[1], '~epoch', ARGV[1])
  e = 0
end
local scale = 2 ^ e
for i = 5, #ARGV, 2 do
  redis.call('HINCRBYFLOAT', KEYS[1], ARGV[i], string.format('%.17g', tonumber(ARGV[i + 1]) * scale))
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

# KEYS[1] spend key. ARGV: usd, limit, ttl_s (whole seconds)
_RESERVE = """
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
if total + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {0, tostring(total)} end
total = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return {1, total}
"""


def _float(value: Any) -> float | None:
    if value in (None, "", b""):
        return None
    return float(value.decode() if isinstance(value, bytes) else value)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class _Connection:
    """A client and its scripts, for one event loop."""

    def __init__(self, url: str, timeout_s: float) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # One immediate retry re-dials a pooled connection Redis closed (a restart); more
        # retries with backoff would make callers wait on a dead server instead of falling back.
        self.client = aioredis.Redis.from_url(
            url,
            socket_timeout=timeout_s,
            socket_connect_timeout=timeout_s,
            retry=Retry(NoBackoff(), 1),
            health_check_interval=0,
        )
        self.allow = self.client.register_script(_ALLOW)
        self.failure = self.client.register_script(_FAILURE)
        self.take = self.client.register_script(_TAKE)
        self.decay_add = self.client.register_script(_DECAY_ADD)
        self.window_take = self.client.register_script(_WINDOW_TAKE)
        self.count_least = self.client.register_script(_COUNT_LEAST)
        self.count_add = self.client.register_script(_COUNT_ADD)
        self.reserve = self.client.register_script(_RESERVE)


class RedisStore:
    """``StateStore`` on Redis. ``url`` may hold a password: it is never shown unmasked."""

    def __init__(
        self,
        url: str,
        *,
        key_prefix: str = "router:",
        timeout_s: float = 1.0,
        downgrade_ttl_s: float = 86400.0,
    ) -> None:
        import importlib.util

        self._url = url
        self.display_url = redact_url(url)
        if importlib.util.find_spec("redis") is None:
            raise ConfigError(
                f"state: Redis at {self.display_url} needs the redis package: "
                'run pip install -e ".[redis]" in the router checkout'
            )
        self._prefix = key_prefix
        self._timeout_s = timeout_s
        self._downgrade_ttl_s = downgrade_ttl_s
        self._lock = threading.Lock()
        self._connections: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Connection] = (
            weakref.WeakKeyDictionary()
        )

    def _connection(self) -> _Connection:
        loop = asyncio.get_running_loop()
        with self._lock:
            connection = self._connections.get(loop)
            if connection is None:
                connection = self._connections[loop] = _Connection(self._url, self._timeout_s)
            return connection

    async def _run(self, what: str, call: Callable[[_Connection], Awaitable[T]]) -> T:
        """Run ``call`` and turn any failure into one redacted ``StateStoreUnavailableError``."""
        from redis.exceptions import RedisError

        try:
            return await call(self._connection())
        except (RedisError, OSError) as exc:  # TimeoutError is an OSError
            scrub_exception(exc, self._url)
            detail = redact(f"{type(exc).__name__}: {exc}", self._url)
            raise StateStoreUnavailableError(f"redis at {self.display_url}: {what} failed: {detail}") from exc

    def _breaker_keys(self, key: str) -> list[str]:
        return [f"{self._prefix}breaker:{key}", f"{self._prefix}breaker:{key}:failures"]

    # --- circuit breakers -------------------------------------------------------------

    async def breaker_allow(self, key: str, now: float, policy: BreakerPolicy) -> tuple[bool, BreakerRecord]:
        args = [repr(now), repr(policy.cooldown_s), repr(policy.probe_lease_s), repr(policy.ttl_s)]
        reply = await self._run("breaker_allow", lambda c: c.allow(keys=self._breaker_keys(key), args=args))
        allowed, state, failures, opened_at, probe_until = reply
        return bool(allowed), BreakerRecord(_text(state), int(failures), _float(opened_at), _float(probe_until))  # type: ignore[arg-type]

    async def breaker_failure(self, key: str, now: float, policy: BreakerPolicy) -> BreakerRecord:
        args = [repr(now), str(policy.failures), repr(policy.window_s), repr(policy.ttl_s)]
        reply = await self._run("breaker_failure", lambda c: c.failure(keys=self._breaker_keys(key), args=args))
        state, failures, opened_at, probe_until = reply
        return BreakerRecord(_text(state), int(failures), _float(opened_at), _float(probe_until))  # type: ignore[arg-type]

    async def breaker_success(self, key: str) -> None:
        await self._run("breaker_success", lambda c: c.client.delete(*self._breaker_keys(key)))

    async def breaker_state(self, key: str) -> BreakerRecord:
        main, failures_key = self._breaker_keys(key)

        async def read(c: _Connection) -> list[Any]:
            async with c.client.pipeline(transaction=True) as pipe:
                pipe.hmget(main, "state", "opened_at", "probe_until")
                pipe.llen(failures_key)
                return await pipe.execute()  # type: ignore[no-any-return]

        (state, opened_at, probe_until), failures = await self._run("breaker_state", read)
        return BreakerRecord(_text(state) if state else "closed", int(failures), _float(opened_at), _float(probe_until))  # type: ignore[arg-type]

    # --- rate limits ------------------------------------------------------------------

    async def take(self, buckets: Sequence[Bucket], now: float, *, force: bool = False) -> float:
        if not buckets:
            return 0.0
        keys = [f"{self._prefix}bucket:{b.key}" for b in buckets]
        args = [repr(now), "1" if force else "0"]
        for b in buckets:
            args += [repr(float(b.amount)), repr(float(b.capacity)), repr(float(b.per_s)), repr(b.ttl_s)]
        reply = await self._run("take", lambda c: c.take(keys=keys, args=args))
        return float(_text(reply))

    # --- budgets ----------------------------------------------------------------------

    async def add_spend(self, key: str, usd: float, ttl_s: float) -> float:
        full = f"{self._prefix}spend:{key}"

        async def add(c: _Connection) -> list[Any]:
            async with c.client.pipeline(transaction=True) as pipe:
                pipe.incrbyfloat(full, usd)
                pipe.expire(full, max(1, int(ttl_s)))  # from the last charge: a day key lives ttl_s past it
                return await pipe.execute()  # type: ignore[no-any-return]

        total, _ = await self._run("add_spend", add)
        return float(total)

    async def reserve_spend(self, key: str, usd: float, limit: float, ttl_s: float) -> tuple[bool, float]:
        args = [repr(float(usd)), repr(float(limit)), str(max(1, int(ttl_s)))]
        ok, total = await self._run("reserve_spend", lambda c: c.reserve(keys=[f"{self._prefix}spend:{key}"], args=args))
        return bool(ok), float(_text(total))

    async def spend(self, key: str) -> float:
        value = await self._run("spend", lambda c: c.client.get(f"{self._prefix}spend:{key}"))
        return _float(value) or 0.0

    # --- text-ReAct downgrade memory ----------------------------------------------------

    async def remember_downgrade(self, key: str, reason: str) -> None:
        full = f"{self._prefix}downgrade:{key}"
        ttl = max(1, int(self._downgrade_ttl_s))
        await self._run("remember_downgrade", lambda c: c.client.set(full, reason, ex=ttl))

    async def forget_downgrade(self, key: str | None = None) -> None:
        if key is not None:
            await self._run("forget_downgrade", lambda c: c.client.delete(f"{self._prefix}downgrade:{key}"))
            return

        async def forget_all(c: _Connection) -> None:
            pattern = _glob_escape(f"{self._prefix}downgrade:") + "*"
            batch: list[Any] = []
            async for name in c.client.scan_iter(match=pattern, count=500):
                batch.append(name)
                if len(batch) >= 500:
                    await c.client.delete(*batch)
                    batch.clear()
            if batch:
                await c.client.delete(*batch)

        await self._run("forget_downgrade", forget_all)

    async def downgrade_reason(self, key: str) -> str | None:
        value = await self._run("downgrade_reason", lambda c: c.client.get(f"{self._prefix}downgrade:{key}"))
        return None if value is None else _text(value)

    # --- response cache ---------------------------------------------------------------

    async def cache_get(self, key: str) -> str | None:
        value = await self._run("cache_get", lambda c: c.client.get(f"{self._prefix}cache:{key}"))
        return None if value is None else _text(value)

    async def cache_set(self, key: str, value: str, ttl_s: float) -> None:
        ttl_ms = max(1, int(ttl_s * 1000))
        await self._run("cache_set", lambda c: c.client.set(f"{self._prefix}cache:{key}", value, px=ttl_ms))

    # --- decayed counters and notes (learned outcomes) ------------------------------------

    async def decay_add(self, key: str, increments: Mapping[str, float], at: float, half_life_s: float,
                        ttl_s: float) -> None:
        args: list[str] = [repr(at), repr(half_life_s), str(max(1, int(ttl_s * 1000))), repr(DECAY_REBASE)]
        for name, value in increments.items():
            args += [name, repr(float(value))]
        await self._run("decay_add", lambda c: c.decay_add(keys=[f"{self._prefix}decay:{key}"], args=args))

    async def decay_read(self, key: str, fields: Sequence[str], now: float, half_life_s: float) -> list[float]:
        full = f"{self._prefix}decay:{key}"
        values = await self._run("decay_read", lambda c: c.client.hmget(full, [DECAY_EPOCH_FIELD, *fields]))
        epoch = _float(values[0])
        if epoch is None:
            return [0.0] * len(fields)
        scale = decay_scale(epoch, now, half_life_s)
        return [(_float(v) or 0.0) * scale for v in values[1:]]

    async def note_set(self, key: str, value: str, ttl_s: float, *, swap: bool = False) -> str | None:
        full, ttl_ms = f"{self._prefix}note:{key}", max(1, int(ttl_s * 1000))
        old = await self._run("note_set", lambda c: c.client.set(full, value, px=ttl_ms, get=swap))
        return None if not swap or old is None or old is True else _text(old)

    async def note_get(self, key: str) -> str | None:
        value = await self._run("note_get", lambda c: c.client.get(f"{self._prefix}note:{key}"))
        return None if value is None else _text(value)

    # --- deployment windows and in-flight counters -------------------------------------

    async def window_take(self, windows: Sequence[Window], now: float, *, force: bool = False, at: float | None = None) -> float:
        if not windows:
            return 0.0
        keys = [f"{self._prefix}window:{w.key}" for w in windows]
        args = [repr(now), "1" if force else "0", "" if at is None else repr(at)]
        for w in windows:
            args += [repr(float(w.amount)), repr(float(w.limit)), repr(float(w.slot_s)), str(w.slots)]
        reply = _text(await self._run("window_take", lambda c: c.window_take(keys=keys, args=args)))
        return math.inf if reply == "inf" else float(reply)

    async def window_used(self, windows: Sequence[Window], now: float) -> list[float]:
        if not windows:
            return []

        async def read(c: _Connection) -> list[Any]:
            async with c.client.pipeline(transaction=False) as pipe:
                for w in windows:
                    pipe.hgetall(f"{self._prefix}window:{w.key}")
                return await pipe.execute()  # type: ignore[no-any-return]

        out = []
        for w, fields in zip(windows, await self._run("window_used", read), strict=True):
            current = math.floor(now / w.slot_s)
            out.append(sum(float(_text(v)) for k, v in fields.items() if int(_text(k)) > current - w.slots))
        return out

    async def count_add(self, key: str, delta: float, ttl_s: float) -> float:
        args = [repr(float(delta)), str(max(1, int(ttl_s * 1000)))]
        reply = await self._run("count_add", lambda c: c.count_add(keys=[f"{self._prefix}count:{key}"], args=args))
        return float(_text(reply))

    async def count_least(self, keys: Sequence[str], start: int, ttl_s: float) -> int:
        full = [f"{self._prefix}count:{k}" for k in keys]
        args = [str(start % len(keys)), str(max(1, int(ttl_s * 1000)))]
        return int(await self._run("count_least", lambda c: c.count_least(keys=full, args=args)))

    async def counts(self, keys: Sequence[str]) -> list[float]:
        if not keys:
            return []
        values = await self._run("counts", lambda c: c.client.mget([f"{self._prefix}count:{k}" for k in keys]))
        return [_float(v) or 0.0 for v in values]

    async def ping(self) -> None:
        """Raise ``StateStoreUnavailableError`` unless Redis answers (for start-up checks)."""
        await self._run("ping", lambda c: c.client.ping())

    async def aclose(self) -> None:
        """Close this loop's client; clients of loops that are gone are dropped with them."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        with self._lock:
            connection = self._connections.pop(loop, None)
        if connection is not None:
            try:
                await connection.client.aclose()
            except Exception:  # closing a client whose server is gone is not worth an error
                pass


def _glob_escape(text: str) -> str:
    return "".join("\\" + ch if ch in "*?[]\\" else ch for ch in text)


__all__ = ["RedisStore"]
