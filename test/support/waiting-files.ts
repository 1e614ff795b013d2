/**
 * Fast test files that spend most of their time waiting on the clock (runs held past the
 * sandbox's hold, real poll intervals), little of it on the CPU: vitest.config.ts starts them
 * early, one about every tenth place, so that their waits overlap the other files' work.
 */
export const WAITING_EARLY = [
  "test/e2e/long-runs.test.ts",
  "test/server/api/run/long-runs-http.test.ts",
  "test/run/long-runs-http.test.ts",
  "test/server/api/run/long-runs.test.ts",
];
