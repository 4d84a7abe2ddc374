// Loaded into the action's bundle (dist/index.js) by the end-to-end tests, with `node --import`:
// the tests' own clock, so the product carries no test hook. On GitHub the action waits real
// seconds — between retries (n² × 1 s), for a rate limit's retry-after, between writes (the
// throttling plugin's 1 s) and up to 20 s for a request that never answers. Here each wait of
// 0.2–60 s is a thousandth as long (1 s → 1 ms), and GATE_TEST_REQUEST_TIMEOUT_MS, when set,
// is the per-request timeout. Waits outside that band (Node's own sub-second ticks, the HTTP
// client's minutes-long timeouts) are left alone.
/* global process, AbortSignal */
import { syncBuiltinESMExports } from "node:module";
import timersPromises from "node:timers/promises";

const LOW_MS = 200;
const HIGH_MS = 60_000;
const short = (ms) =>
  typeof ms === "number" && ms >= LOW_MS && ms <= HIGH_MS ? Math.max(1, Math.round(ms / 1000)) : ms;

const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = Object.assign(
  (fn, ms, ...args) => realSetTimeout(fn, short(ms), ...args),
  realSetTimeout,
);

const realSleep = timersPromises.setTimeout;
timersPromises.setTimeout = (ms, ...rest) => realSleep(short(ms), ...rest);
syncBuiltinESMExports();

const timeoutMs = Number(process.env["GATE_TEST_REQUEST_TIMEOUT_MS"] ?? "");
if (Number.isInteger(timeoutMs) && timeoutMs > 0) {
  const realTimeout = AbortSignal.timeout.bind(AbortSignal);
  AbortSignal.timeout = () => realTimeout(timeoutMs);
}
