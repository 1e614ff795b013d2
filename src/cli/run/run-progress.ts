/**
 * How far a run has got, told honestly when Ctrl-C comes (shell/interrupt.ts asks). Before its
 * request has gone out whole, nothing was run; after, the service has the run and may well
 * complete it (the email goes out), so the user is told where to look; once the service handed
 * back a run still going, how to wait for it again.
 */
import { explainInterrupts } from "../shell/interrupt.js";

type Phase = { at: "preparing" } | { at: "sent" } | { at: "waiting"; id: string };

export class RunProgress {
  private phase: Phase;
  /** The addresses being run, as given: how to find a run whose id Ctrl-C came too early to learn. */
  private scripts: string[] = [];

  private constructor(phase: Phase) {
    this.phase = phase;
    explainInterrupts(() => this.interruptMessage());
  }

  /** A run being prepared (`reduck run`): nothing is sent yet. Ctrl-C asks it from now on. */
  static preparing(): RunProgress {
    return new RunProgress({ at: "preparing" });
  }

  /** A run the service already has, waited for by its batch or run id (`reduck runs wait`). */
  static waitingFor(id: string): RunProgress {
    return new RunProgress({ at: "waiting", id });
  }

  /** The scripts this run sends, by the addresses given. */
  runs(addresses: string[]): void {
    this.scripts = addresses;
  }

  /** The request has gone out whole (or the wait is over): the service has the run. */
  sent(): void {
    this.phase = { at: "sent" };
  }

  /**
   * The service handed back a run still going: Ctrl-C stops the wait, not the run. Without an id
   * to wait for, what is said is where to find the run.
   */
  waiting(id: string | undefined): void {
    this.phase = id ? { at: "waiting", id } : { at: "sent" };
  }

  interruptMessage(): string {
    const { phase, scripts } = this;
    if (phase.at === "preparing") return "Interrupted: nothing was run";
    if (phase.at === "waiting") return `Interrupted: the run goes on at the service. Wait for it again with:\n  reduck runs wait ${phase.id}`;
    if (!scripts.length) return "Interrupted: the run was already sent and may still complete; check `reduck runs list`";
    const several = scripts.length > 1;
    return [
      `Interrupted: the run${several ? "s were" : " was"} already sent and may still complete, before the service said ${several ? "their ids" : "its id"}. Find ${several ? "them" : "it"} with:`,
      ...[...new Set(scripts)].map((address) => `  reduck runs list --script ${address}`),
    ].join("\n");
  }
}
