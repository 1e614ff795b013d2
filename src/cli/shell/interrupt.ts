/**
 * What Ctrl-C leaves behind, told honestly. Before a run's request has gone out whole, nothing
 * was run; after, the service has the run and may well complete it (the email goes out), so
 * the user is told where to look.
 */
import { ExitCode } from "./exit-codes.js";
import { wantsJson } from "./json-errors.js";
import { jsonText } from "./json-text.js";

export type RunPhase = "none" | "preparing" | "sent" | "waiting";

let phase: RunPhase = "none";
let waitingFor: string | undefined;
let scripts: string[] = [];

/** The addresses being run, as given: how to find a run whose id Ctrl-C came too early to learn. */
export function setRunScripts(addresses: string[]): void {
  scripts = addresses;
}

/**
 * `reduck run` says how far it got: "preparing" until the request is sent whole, then "sent";
 * "waiting" (with the batch or run id) once the service handed back a run still going.
 */
export function setRunPhase(next: RunPhase, id?: string): void {
  phase = next;
  waitingFor = id;
}

export function interruptMessage(): string {
  if (phase === "preparing") return "Interrupted: nothing was run";
  if (phase === "waiting") return `Interrupted: the run goes on at the service. Wait for it again with:\n  reduck runs wait ${waitingFor}`;
  if (phase === "sent") {
    if (!scripts.length) return "Interrupted: the run was already sent and may still complete; check `reduck runs list`";
    const several = scripts.length > 1;
    return [
      `Interrupted: the run${several ? "s were" : " was"} already sent and may still complete, before the service said ${several ? "their ids" : "its id"}. Find ${several ? "them" : "it"} with:`,
      ...[...new Set(scripts)].map((address) => `  reduck runs list --script ${address}`),
    ].join("\n");
  }
  return "Interrupted.";
}

/** One line on stderr (with --json, the error as one JSON document on stdout) and the conventional exit code. */
export function onInterrupt(): void {
  if (wantsJson(process.argv.slice(2))) {
    process.stdout.write(`${jsonText({ error: { message: interruptMessage(), exitCode: ExitCode.INTERRUPTED, kind: "aborted" } })}\n`);
  } else {
    process.stderr.write(`\n${interruptMessage()}\n`);
  }
  process.exit(ExitCode.INTERRUPTED);
}
