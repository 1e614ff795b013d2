// test-setup.ts for Node itself, as entry.mjs is index.ts.
import "../process/register-tsx.mjs";

await import("./test-setup.ts");
