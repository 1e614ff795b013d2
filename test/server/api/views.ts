// Records -> the wire shapes of openapi.json. Who is looking matters: official scripts hide their code
// and notes from non-members, and summaries never carry code, schemas or notes.
import type { components } from "../contract/openapi-types.js";
import type { ConnectorRecord, DeviceRecord, ReadmeRecord, RunRecord, ScriptRecord, VersionRecord } from "../store/records.js";
import type { SandboxStore } from "../store/store.js";

type Schemas = components["schemas"];

/** The caller's user id, or null for an anonymous caller. */
export type Viewer = string | null;

function author(store: SandboxStore, script: ScriptRecord): Schemas["ScriptAuthor"] {
  return {
    kind: script.owner.kind,
    handle: store.handleOf(script.owner),
    name: store.ownerName(script.owner),
    approval: store.isOfficial(script.owner) ? "official" : "unverified",
  };
}

export function versionSummary(store: SandboxStore, viewer: Viewer, version: VersionRecord, options: { withNote: boolean }): Schemas["ScriptVersionSummary"] {
  const script = store.scripts.get(version.scriptId)!;
  const creator = version.createdBy ? store.users.get(version.createdBy) : undefined;
  const view: Schemas["ScriptVersionSummary"] = {
    id: version.id,
    script_id: version.scriptId,
    version_number: version.versionNumber,
    parent_version_id: version.parentVersionId,
    language: version.language,
    logged_in: version.loggedIn,
    side_effects: version.sideEffects,
    draft: version.draft,
    created_by: creator ? { handle: creator.username ? "@" + creator.username : creator.id, name: creator.name } : null,
    created_at: version.createdAt,
    ...store.stats(script.id, version.id),
  };
  if (options.withNote && store.mayReadCode(viewer, script, version)) view.note = version.note;
  return view;
}

/** A full version: code (unless hidden) and contract. */
export function versionView(store: SandboxStore, viewer: Viewer, version: VersionRecord): Schemas["ScriptVersion"] {
  const script = store.scripts.get(version.scriptId)!;
  const view: Schemas["ScriptVersion"] = {
    ...versionSummary(store, viewer, version, { withNote: true }),
    input_schema: version.inputSchema,
    output_schema: version.outputSchema,
  };
  if (store.mayReadCode(viewer, script, version)) view.content = version.content;
  return view;
}

function scriptBase(store: SandboxStore, script: ScriptRecord) {
  return {
    id: script.id,
    name: script.name,
    slug: script.slug,
    host: script.host,
    description: script.description,
    visibility: script.visibility,
    current_version_id: script.currentVersionId,
    archived_at: script.archivedAt,
    created_at: script.createdAt,
    updated_at: script.updatedAt,
    author: author(store, script),
    ...store.stats(script.id),
    version_count: store.versionsOf(script.id).length,
    human_required: script.humanRequired,
  };
}

export function scriptSummary(store: SandboxStore, viewer: Viewer, script: ScriptRecord): Schemas["ScriptSummary"] {
  const current = store.currentVersion(script);
  return {
    ...scriptBase(store, script),
    current_version: current ? versionSummary(store, viewer, current, { withNote: false }) : null,
  };
}

export function scriptWithVersion(store: SandboxStore, viewer: Viewer, script: ScriptRecord): Schemas["ScriptWithVersion"] {
  const current = store.currentVersion(script);
  return { ...scriptBase(store, script), current_version: current ? versionView(store, viewer, current) : null };
}

export function runView(run: RunRecord): Schemas["Run"] {
  return {
    id: run.id,
    user_id: run.userId,
    name: run.name,
    browser: run.browser,
    // The generated type reads `type: object` as an empty record; any JSON object is what it means.
    args: run.args as Record<string, never>,
    status: run.status,
    result: run.result,
    source: run.source,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    script: run.script,
  };
}

export function deviceView(device: DeviceRecord): Schemas["Device"] {
  return {
    id: device.id,
    name: device.name,
    browser: device.browser,
    os: device.os,
    file_access: device.fileAccess,
    reachable: device.reachable,
    created_at: device.createdAt,
    concurrency_budget: device.concurrencyBudget,
  };
}

export function connectorView(connector: ConnectorRecord): Schemas["Connector"] {
  return { id: connector.id, host: connector.host, created_at: connector.createdAt, updated_at: connector.updatedAt };
}

export function connectorWithCookies(connector: ConnectorRecord): Schemas["ConnectorWithCookies"] {
  return { ...connectorView(connector), cookies: connector.cookies };
}

export function readmeView(readme: ReadmeRecord): Schemas["HostReadme"] {
  return { host: readme.host, content: readme.content, created_at: readme.createdAt, updated_at: readme.updatedAt };
}
