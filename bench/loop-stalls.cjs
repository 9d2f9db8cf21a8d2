// Preloaded into the server by npm run bench:attacks (NODE_OPTIONS --require): appends to IMPORTD_BENCH_STALLS a
// line "stall <epoch ms> <ms>" for each time the main thread's event loop was held longer than STALL_MS, and
// "busy <epoch ms> <share>" each second with the event loop's utilization, so each attack reports them beside the
// other account's slowest read (which also pays for the machine's other processes: a stall with the loop mostly
// idle is the machine's). With IMPORTD_BENCH_CPU_PROFILE, also writes the main thread's CPU profile there as the
// server exits (node refuses --cpu-prof in NODE_OPTIONS).
'use strict';
const { appendFileSync, writeFileSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');

const file = process.env.IMPORTD_BENCH_STALLS;
const profile = process.env.IMPORTD_BENCH_CPU_PROFILE;
const TICK_MS = 10;
const STALL_MS = 30;
if (file && isMainThread) {
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const held = now - last - TICK_MS;
    last = now;
    if (held > STALL_MS) appendFileSync(file, `stall ${Date.now()} ${Math.round(held)}\n`);
  }, TICK_MS).unref();
  let utilization = performance.eventLoopUtilization();
  setInterval(() => {
    const since = performance.eventLoopUtilization(utilization);
    utilization = performance.eventLoopUtilization();
    appendFileSync(file, `busy ${Date.now()} ${since.utilization.toFixed(3)}\n`);
  }, 1000).unref();
}
if (profile && isMainThread) {
  const { Session } = require('node:inspector');
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  // A session of this thread answers synchronously: the profile is written before the process is gone.
  process.on('exit', () => session.post('Profiler.stop', (error, result) => error || writeFileSync(profile, JSON.stringify(result.profile))));
}
