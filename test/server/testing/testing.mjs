// testing.ts for Node itself, as entry.mjs is index.ts: vitest loads this when it does not
// transform the package (entry.test.ts checks that no export is missing).
import "../process/register-tsx.mjs";

const testing = await import("./testing.ts");

export const { endOfTestFile, useSandboxInProcess } = testing;
