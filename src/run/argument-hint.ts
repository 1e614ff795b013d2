/**
 * When the service refuses a run's arguments, the argument it most likely did not expect. The
 * service names what is missing or wrong ("subject is required"), not a misspelt name it took
 * as an extra; so the script's contract is read then, and only then, and each argument given
 * that the contract does not take is named, with the one it most likely meant.
 */
import type { ReduckClient } from "../core/client.js";
import { isObject } from "../core/json.js";
import { closest } from "../core/words/suggest.js";
import { getMe, getScript, getScriptVersion } from "../generated/operations.js";
import type { ScriptToRun } from "./run-types.js";

/** An argument the script does not take, and what it most likely meant. */
export interface UnknownArgument {
  parameter: string;
  suggestion?: string;
  /** The sentence that says so, to add to the service's refusal. */
  sentence: string;
}

/**
 * Whether a failure is the service refusing the run's arguments: its class says so
 * (`invalid_input`), or it is a 400 naming fields.
 */
export function refusesArguments(failure: { errorType?: string; status?: unknown; variables?: unknown }): boolean {
  return failure.errorType === "invalid_input" || (failure.status === 400 && failure.variables !== undefined);
}

/**
 * The first argument of `step` its script's contract does not take, or undefined when every
 * one is known or the contract cannot be read (the refusal then stands as the service said it).
 *
 * @example
 * const unknown = await unknownArgument(client, { handle: "reduck", host: "mail.google.com", slug: "send_email", args: { to: "a@b.c", subjet: "Hi" } });
 * // { parameter: "subjet", suggestion: "subject", sentence: "reduck/mail.google.com/send_email takes no argument subjet (did you mean subject?)" }
 */
export async function unknownArgument(client: ReduckClient, step: ScriptToRun, signal?: AbortSignal): Promise<UnknownArgument | undefined> {
  const given = Object.keys(step.args ?? {});
  if (!given.length) return undefined;
  const schema = await inputSchema(client, step, signal);
  if (!isObject(schema) || !isObject(schema.properties)) return undefined;
  const takes = Object.keys(schema.properties);
  const parameter = given.find((name) => !takes.includes(name));
  if (parameter === undefined) return undefined;
  const suggestion = closest(
    parameter,
    takes.filter((name) => !given.includes(name)),
  );
  const address = `${step.handle ? `${step.handle}/` : ""}${step.host}/${step.slug}`;
  const sentence = `${address} takes no argument ${parameter} (${suggestion ? `did you mean ${suggestion}?` : `it takes ${takes.join(", ") || "none"}`})`;
  return { parameter, ...(suggestion ? { suggestion } : {}), sentence };
}

/** The input schema of the version the run asked for (the current one unless `version_id`). */
async function inputSchema(client: ReduckClient, step: ScriptToRun, signal?: AbortSignal): Promise<unknown> {
  let handle = step.handle;
  if (!handle) {
    const me = await getMe({ client, signal });
    handle = me.data?.handle ?? undefined;
    if (!handle) return undefined;
  }
  const path = { handle, host: step.host, slug: step.slug };
  if (step.version_id) return (await getScriptVersion({ client, path: { ...path, versionId: step.version_id }, signal })).data?.input_schema;
  return (await getScript({ client, path, signal })).data?.current_version?.input_schema;
}
