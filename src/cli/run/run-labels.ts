/** How a run's script and browser read in tables and records. */
import type { components } from "../../generated/schema.js";

type Run = components["schemas"]["Run"];

/** `handle/host/slug`, or the run's name when the script is gone. */
export function scriptLabel(run: Pick<Run, "script" | "name">): string {
  return run.script ? `${run.script.handle}/${run.script.host}/${run.script.slug}` : `${run.name} (script deleted)`;
}

/** `extension`, or `managed (eu-central-1)`. */
export function browserLabel(browser: Run["browser"]): string {
  return browser.type === "managed" ? `managed (${browser.region})` : browser.type;
}
