/**
 * Test files that spend most of their time waiting on the clock (runs held past the sandbox's
 * hold, real poll intervals, clients that trickle or idle until a timeout ends them), little of it
 * on the CPU. Each suite runs them so that their waits overlap other files' work.
 */

/** Fast files: vitest.config.ts starts them early, one about every tenth place. */
export const WAITING_EARLY = [
  "test/e2e/long-runs.test.ts",
  "test/server/api/run/long-runs-http.test.ts",
  "test/run/long-runs-http.test.ts",
  "test/server/api/run/long-runs.test.ts",
];

/**
 * Slow files: scripts/test-slow.ts runs them in a vitest run of their own beside the others (about
 * 100 s together, a small part of it on the CPU).
 */
export const WAITING_BESIDE = [
  "test/mcp/long-runs.slow.test.ts",
  "test/server/process/attacks/slow-clients.slow.test.ts",
  "test/server/process/attacks/idle-connections.slow.test.ts",
];
