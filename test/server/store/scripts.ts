// The store's scripts and versions: finding them, adding them, promoting a version, and their usage
// statistics as computed from the recorded runs.
import { randomUUID } from "node:crypto";
import type { OwnerRef, ScriptRecord, VersionRecord } from "./records.js";
import { AccountsStore } from "./accounts.js";
import { sameOwner } from "./owners.js";
import type { AddScriptInput, AddVersionInput, ScriptStats } from "./types.js";

/** Placeholder script body of scripts seeded without code: POST /run runs it and gets `{}`. */
export const PLACEHOLDER_CONTENT = "return {};\n";

export abstract class ScriptsStore extends AccountsStore {
  /** Finds a script by owner + host + slug, archived ones included. */
  findScript(owner: OwnerRef, host: string, slug: string): ScriptRecord | undefined {
    return [...this.scripts.values()].find((s) => sameOwner(s.owner, owner) && s.host === host && s.slug === slug);
  }

  /** Same, addressed the way URLs address it: `findScriptByAddress("@demo", "example.com", "get_title")`. */
  findScriptByAddress(handle: string, host: string, slug: string): ScriptRecord | undefined {
    const owner = this.resolveHandle(handle);
    return owner ? this.findScript(owner, host, slug) : undefined;
  }

  scriptsOwnedBy(owner: OwnerRef): ScriptRecord[] {
    return [...this.scripts.values()].filter((s) => sameOwner(s.owner, owner));
  }

  /** Versions of a script, newest (highest number) first. */
  versionsOf(scriptId: string): VersionRecord[] {
    return [...this.versions.values()].filter((v) => v.scriptId === scriptId).sort((a, b) => b.versionNumber - a.versionNumber);
  }

  currentVersion(script: ScriptRecord): VersionRecord | null {
    return script.currentVersionId ? (this.versions.get(script.currentVersionId) ?? null) : null;
  }

  /**
   * Adds a script with its first version (promoted and current unless `draft`).
   *
   * @example
   * store.addScript({ handle: "@demo", host: "example.com", slug: "get_links", visibility: "public" });
   */
  addScript(input: AddScriptInput): ScriptRecord {
    const owner = this.resolveHandle(input.handle);
    if (!owner) throw new Error(`addScript: unknown handle ${input.handle}`);
    if (this.findScript(owner, input.host, input.slug)) {
      throw new Error(`addScript: ${input.handle}/${input.host}/${input.slug} already exists`);
    }
    const createdAt = input.createdAt ?? this.now();
    const script: ScriptRecord = {
      id: input.id ?? randomUUID(),
      owner,
      host: input.host,
      slug: input.slug,
      name: input.name ?? input.slug,
      description: input.description ?? `Automates ${input.slug.replace(/[_-]/g, " ")} on ${input.host}.`,
      visibility: input.visibility ?? "private",
      currentVersionId: null,
      archivedAt: input.archived ? (input.updatedAt ?? createdAt) : null,
      createdAt,
      updatedAt: input.updatedAt ?? createdAt,
      humanRequired: input.humanRequired ?? false,
      ...(input.unlisted ? { unlisted: true } : {}),
      ...(input.noOutcome ? { noOutcome: true } : {}),
    };
    this.scripts.set(script.id, script);
    const { id: _scriptId, versionId, draft, unlisted: _unlisted, noOutcome: _noOutcome, ...versionFields } = input;
    this.addVersion(script.id, { ...versionFields, id: versionId, createdAt, draft: draft ?? false });
    // addVersion bumps updatedAt; a seeded script keeps the time it was given.
    script.updatedAt = input.updatedAt ?? createdAt;
    return script;
  }

  /**
   * Adds a version after the latest one. A non-draft version is promoted: it becomes current.
   * Fields not given are copied from the parent (default: the current version), else defaulted.
   */
  addVersion(scriptId: string, input: AddVersionInput = {}): VersionRecord {
    const script = this.scripts.get(scriptId);
    if (!script) throw new Error(`addVersion: unknown script ${scriptId}`);
    const existing = this.versionsOf(scriptId);
    const parent: VersionRecord | undefined =
      input.parentVersionId !== undefined
        ? input.parentVersionId
          ? this.versions.get(input.parentVersionId)
          : undefined
        : (this.currentVersion(script) ?? existing[0]);
    const defaultAuthor =
      script.owner.kind === "user" ? script.owner.id : ([...(this.projects.get(script.owner.id)?.members ?? [])].find(([, r]) => r === "owner")?.[0] ?? null);
    const version: VersionRecord = {
      id: input.id ?? randomUUID(),
      scriptId,
      versionNumber: (existing[0]?.versionNumber ?? 0) + 1,
      parentVersionId: parent ? parent.id : null,
      language: input.language ?? parent?.language ?? "typescript",
      loggedIn: input.loggedIn ?? parent?.loggedIn ?? false,
      sideEffects: input.sideEffects ?? parent?.sideEffects ?? "none",
      draft: input.draft ?? true,
      note: input.note === undefined ? null : input.note,
      createdBy: input.createdBy === undefined ? defaultAuthor : input.createdBy,
      createdAt: input.createdAt ?? this.now(),
      content: input.content ?? parent?.content ?? PLACEHOLDER_CONTENT,
      inputSchema: input.inputSchema ?? parent?.inputSchema ?? { type: "object", properties: {} },
      outputSchema: input.outputSchema ?? parent?.outputSchema ?? { type: "object", properties: {} },
      ...(input.codeWithheld ? { codeWithheld: true as const } : {}),
    };
    this.versions.set(version.id, version);
    if (!version.draft) script.currentVersionId = version.id;
    script.updatedAt = this.now();
    return version;
  }

  /** Promotes a version (a draft, or an older promoted one: rollback) to current. */
  promoteVersion(version: VersionRecord): void {
    const script = this.scripts.get(version.scriptId)!;
    version.draft = false;
    script.currentVersionId = version.id;
    script.updatedAt = this.now();
  }

  /** Usage statistics of a script (or of one of its versions), computed from the recorded runs. */
  stats(scriptId: string, versionId?: string): ScriptStats {
    const runs = [...this.runs.values()].filter((r) => r.script?.id === scriptId && (versionId === undefined || r.script.version_id === versionId));
    const finished = runs.filter((r) => r.status === "success" || r.status === "error");
    const timed = finished.filter((r) => r.finishedAt);
    const lastRun =
      runs
        .map((r) => r.startedAt)
        .sort()
        .at(-1) ?? null;
    return {
      execution_count: runs.length,
      last_run_at: lastRun,
      success_rate: finished.length ? finished.filter((r) => r.status === "success").length / finished.length : null,
      avg_time_ms: timed.length ? Math.round(timed.reduce((sum, r) => sum + (Date.parse(r.finishedAt!) - Date.parse(r.startedAt)), 0) / timed.length) : null,
    };
  }
}
