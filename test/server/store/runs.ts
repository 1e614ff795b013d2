// The store's runs: recorded as POST /run records them, moved along, and seeded for tests.
import { randomUUID } from "node:crypto";
import type { RunRecord, RunStatus } from "./records.js";
import { isFinished, outcomeOf } from "./run-outcomes.js";
import { ScriptsStore } from "./scripts.js";
import type { AddRunInput, RecordRunInput } from "./types.js";

export abstract class RunsStore extends ScriptsStore {
  /**
   * Records a run of a script version, freezing the script's identity into the run. This is what
   * POST /run stores.
   *
   * @example
   * const run = store.recordRun({ userId, scriptId, browser: { type: "extension" }, source: "rest",
   *   status: "success", result: { sent: true } });
   */
  recordRun(input: RecordRunInput): RunRecord {
    const script = this.scripts.get(input.scriptId);
    if (!script) throw new Error(`recordRun: unknown script ${input.scriptId}`);
    const version = input.versionId ? this.versions.get(input.versionId) : this.currentVersion(script);
    if (!version || version.scriptId !== script.id) {
      throw new Error(`recordRun: script ${script.slug} has no version ${input.versionId ?? "(current)"}`);
    }
    const status = input.status ?? "success";
    const startedAt = input.startedAt ?? this.now();
    const run: RunRecord = {
      id: input.id ?? randomUUID(),
      userId: input.userId,
      name: script.name,
      browser: input.browser,
      args: input.args ?? {},
      status,
      result: outcomeOf(status, input.result, input.error),
      source: input.source,
      startedAt,
      finishedAt: input.finishedAt !== undefined ? input.finishedAt : isFinished(status) ? this.now() : null,
      script: {
        id: script.id,
        version_id: version.id,
        version_number: String(version.versionNumber),
        name: script.name,
        handle: this.handleOf(script.owner),
        slug: script.slug,
        host: script.host,
      },
      trace: input.trace ?? null,
      files: input.files ?? [],
    };
    this.runs.set(run.id, run);
    return run;
  }

  /** Moves a run along (queued -> running -> success/error/cancelled). */
  updateRun(
    runId: string,
    patch: { status?: RunStatus; result?: Record<string, unknown>; error?: string; finishedAt?: string | null; trace?: unknown },
  ): RunRecord {
    const run = this.runs.get(runId);
    if (!run) throw new Error(`updateRun: unknown run ${runId}`);
    if (patch.status) run.status = patch.status;
    if (patch.status || patch.result || patch.error) run.result = outcomeOf(run.status, patch.result, patch.error);
    if (patch.finishedAt !== undefined) run.finishedAt = patch.finishedAt;
    else if (isFinished(run.status) && !run.finishedAt) run.finishedAt = this.now();
    if (patch.trace !== undefined) run.trace = patch.trace;
    return run;
  }

  /**
   * Seeding shortcut for tests: defaults to a successful extension run of @demo/example.com/get_title
   * by the demo user.
   *
   * @example
   * for (let i = 0; i < 45; i++) store.addRun({ status: "success" });
   */
  addRun(input: AddRunInput = {}): RunRecord {
    let scriptId = input.scriptId;
    if (!scriptId) {
      const address = input.script ?? { handle: "@demo", host: "example.com", slug: "get_title" };
      const script = this.findScriptByAddress(address.handle, address.host, address.slug);
      if (!script) throw new Error(`addRun: no script ${address.handle}/${address.host}/${address.slug}`);
      scriptId = script.id;
    }
    return this.recordRun({
      ...input,
      scriptId,
      userId: input.userId ?? this.demo.userId,
      browser: input.browser ?? { type: "extension" },
      source: input.source ?? "cli",
    });
  }

  runsOf(userId: string): RunRecord[] {
    return [...this.runs.values()].filter((r) => r.userId === userId);
  }
}
