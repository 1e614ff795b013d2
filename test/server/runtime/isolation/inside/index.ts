// The code that runs inside a script body's context, bundled by ../build.ts into one script text
// whose value is this module's exports: the worker evaluates it in the context, calls webGlobals(),
// then inside(...). Nothing here may depend on anything outside inside/ (its text is what runs,
// in a realm with only the language's built-ins).
import type { inside } from "./inside.js";
import type { webGlobals } from "./web-globals/index.js";

export { inside } from "./inside.js";
export { webGlobals } from "./web-globals/index.js";

/** What evaluating the bundled script text gives. */
export type InsideScript = { inside: typeof inside; webGlobals: typeof webGlobals };
