/**
 * `reduck run` arguments: `--script ADDRESS` starts a step; each `name=value` and
 * `file:INPUT=PATH` after it belongs to that step. Values are coerced to the types the
 * script's input schema asks for, and checked before anything is uploaded.
 */
import { expandHome } from "../../system/paths.js";
import { usageError } from "../shell/errors.js";
import { parseAddress, type ScriptAddress } from "../shell/address.js";
import { scriptFlagHint } from "./run-hints.js";

export interface StepArgs {
  address: ScriptAddress;
  /** Raw `name=value` pairs, in order. */
  values: Array<[string, string]>;
  /** `file:INPUT=PATH`, with `~` expanded. */
  files: Array<[string, string]>;
}

/** Flags of `run` that take a value, so their value is not mistaken for a script argument. */
const VALUE_FLAGS = new Set([
  "--browser",
  "--device",
  "--version",
  "--version-id",
  "--out",
  "--api-key",
  "--api-url",
  "--region",
  "--country",
  "--wait-for-seconds",
]);

export function groupSteps(argv: string[]): StepArgs[] {
  const steps: StepArgs[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--script" || token.startsWith("--script=")) {
      const value = token === "--script" ? argv[++i] : token.slice("--script=".length);
      if (!value || value.startsWith("-")) throw usageError("--script needs an address, e.g. --script reduck/mail.google.com/send_email");
      steps.push({ address: parseAddress(value), values: [], files: [] });
      continue;
    }
    if (token.startsWith("-")) {
      if (VALUE_FLAGS.has(token)) i++;
      continue;
    }
    const eq = token.indexOf("=");
    if (eq <= 0) {
      const hint = scriptFlagHint(token);
      if (hint) throw usageError(`${JSON.stringify(token)} is a script address, not an argument: ${hint} (its arguments follow it as name=value)`);
      throw usageError(`${JSON.stringify(token)} is not an argument: write name=value, or file:input=path for a file`);
    }
    const step = steps.at(-1);
    if (!step) {
      throw usageError(
        `${JSON.stringify(token)} comes before any --script: arguments follow --script ADDRESS, e.g. reduck run --script reduck/mail.google.com/send_email ${token}`,
      );
    }
    const name = token.slice(0, eq);
    const value = token.slice(eq + 1); // split on the first "=" only: values may contain "="
    if (name.startsWith("file:")) {
      const input = name.slice("file:".length);
      if (!input) throw usageError(`${JSON.stringify(token)} names no file input: write file:input=path`);
      if (!value) throw usageError(`file:${input} needs a path: write file:${input}=path`);
      step.files.push([input, expandHome(value)]);
    } else {
      step.values.push([name, value]);
    }
  }
  if (steps.length === 0)
    throw usageError("give a script to run: --script ADDRESS name=value ..., where ADDRESS is [handle/]host/slug (see `reduck scripts list`)");
  return steps;
}

/** Shells do not expand `~` after `=`, so the CLI does (`~\` too on Windows). */
export { expandHome } from "../../system/paths.js";
