// Written by `npm run generate` from openapi.json. Do not edit by hand.

import type { operations } from "./schema.js";
import { callOperation, callListOperation } from "../core/call.js";
import type { OperationOptions, OperationResult, ListResult, SuccessData, ItemOf } from "../core/types.js";

/**
 * List your devices
 *
 * Returns the devices registered on your account.
 *
 * `GET /api/devices`
 */
export function listDevices(options: OperationOptions<operations["listDevices"]>): Promise<OperationResult<SuccessData<operations["listDevices"]>>> {
  return callOperation(options, "get", "/api/devices");
}

/**
 * List your runs
 *
 * Returns your automation runs, newest first.
 *
 * `GET /api/runs`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listRuns(options: OperationOptions<operations["listRuns"]>): Promise<ListResult<ItemOf<operations["listRuns"]>>> {
  return callListOperation(options, "get", "/api/runs");
}

/**
 * Fetch a run
 *
 * Returns a single run of yours, looked up by id.
 *
 * `GET /api/runs/{runId}`
 */
export function getRun(options: OperationOptions<operations["getRun"]>): Promise<OperationResult<SuccessData<operations["getRun"]>>> {
  return callOperation(options, "get", "/api/runs/{runId}");
}

/**
 * Remove a run
 *
 * Removes a completed run along with its recorded trace.
 *
 * `DELETE /api/runs/{runId}`
 */
export function deleteRun(options: OperationOptions<operations["deleteRun"]>): Promise<OperationResult<SuccessData<operations["deleteRun"]>>> {
  return callOperation(options, "delete", "/api/runs/{runId}");
}

/**
 * Delete several runs at once
 *
 * Removes as many as 100 runs, given by id, in a single request. Ids that cannot be removed are listed as skipped; the rest of the batch still proceeds.
 *
 * `POST /api/runs/delete`
 */
export function batchDeleteRuns(options: OperationOptions<operations["batchDeleteRuns"]>): Promise<OperationResult<SuccessData<operations["batchDeleteRuns"]>>> {
  return callOperation(options, "post", "/api/runs/delete");
}

/**
 * Fetch a run's trace
 *
 * Returns the trace recorded by a run.
 *
 * `GET /api/runs/{runId}/trace`
 */
export function getRunTrace(options: OperationOptions<operations["getRunTrace"]>): Promise<OperationResult<SuccessData<operations["getRunTrace"]>>> {
  return callOperation(options, "get", "/api/runs/{runId}/trace");
}

/**
 * Fetch a script
 *
 * Returns a single script identified by its canonical identity, along with its current version. Public scripts can be read by any caller, authenticated or anonymous; private scripts only by their owner or by members of the owning project.
 *
 * `GET /api/scripts/{handle}/{host}/{slug}`
 */
export function getScript(options: OperationOptions<operations["getScript"]>): Promise<OperationResult<SuccessData<operations["getScript"]>>> {
  return callOperation(options, "get", "/api/scripts/{handle}/{host}/{slug}");
}

/**
 * Edit a script
 *
 * Edits the metadata of a script that can be changed.
 *
 * `PATCH /api/scripts/{handle}/{host}/{slug}`
 */
export function patchScript(options: OperationOptions<operations["patchScript"]>): Promise<OperationResult<SuccessData<operations["patchScript"]>>> {
  return callOperation(options, "patch", "/api/scripts/{handle}/{host}/{slug}");
}

/**
 * List an owner's scripts
 *
 * Lists scripts belonging to a single handle. The owner, and every project member when the handle is a project, can see all of its scripts; any other caller sees only the owner's public ones.
 *
 * `GET /api/scripts/{handle}`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listScripts(options: OperationOptions<operations["listScripts"]>): Promise<ListResult<ItemOf<operations["listScripts"]>>> {
  return callListOperation(options, "get", "/api/scripts/{handle}");
}

/**
 * Create a script
 *
 * Creates a script for an owner handle and its initial version in a single request.
 *
 * `POST /api/scripts/{handle}`
 */
export function createScript(options: OperationOptions<operations["createScript"]>): Promise<OperationResult<SuccessData<operations["createScript"]>>> {
  return callOperation(options, "post", "/api/scripts/{handle}");
}

/**
 * List scripts across owners
 *
 * Lists scripts. A signed-in caller receives a list spanning owners: their own scripts, scripts of projects they belong to, and the official catalogue. A caller without credentials receives only the official catalogue.
 *
 * `GET /api/scripts`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listAllScripts(options: OperationOptions<operations["listAllScripts"]>): Promise<ListResult<ItemOf<operations["listAllScripts"]>>> {
  return callListOperation(options, "get", "/api/scripts");
}

/**
 * Make a script public
 *
 * Makes a script public so that anyone can read it.
 *
 * `POST /api/scripts/{handle}/{host}/{slug}/publish`
 */
export function publishScript(options: OperationOptions<operations["publishScript"]>): Promise<OperationResult<SuccessData<operations["publishScript"]>>> {
  return callOperation(options, "post", "/api/scripts/{handle}/{host}/{slug}/publish");
}

/**
 * Make a script private
 *
 * Makes a script private once more. Archived scripts can be unpublished as well.
 *
 * `POST /api/scripts/{handle}/{host}/{slug}/unpublish`
 */
export function unpublishScript(options: OperationOptions<operations["unpublishScript"]>): Promise<OperationResult<SuccessData<operations["unpublishScript"]>>> {
  return callOperation(options, "post", "/api/scripts/{handle}/{host}/{slug}/unpublish");
}

/**
 * Archive a script
 *
 * Archives a script. Archived scripts drop out of the cross-owner listing; a listing limited to the owner still includes them unless archived scripts are filtered out. While the archived script exists its host and slug remain reserved, which prevents any other script from taking them; a public archived script can still be read directly.
 *
 * `POST /api/scripts/{handle}/{host}/{slug}/archive`
 */
export function archiveScript(options: OperationOptions<operations["archiveScript"]>): Promise<OperationResult<SuccessData<operations["archiveScript"]>>> {
  return callOperation(options, "post", "/api/scripts/{handle}/{host}/{slug}/archive");
}

/**
 * Unarchive a script
 *
 * Brings an archived script back.
 *
 * `POST /api/scripts/{handle}/{host}/{slug}/restore`
 */
export function restoreScript(options: OperationOptions<operations["restoreScript"]>): Promise<OperationResult<SuccessData<operations["restoreScript"]>>> {
  return callOperation(options, "post", "/api/scripts/{handle}/{host}/{slug}/restore");
}

/**
 * List a script's versions
 *
 * Lists the versions of a script, most recent first. Fetch an individual version to obtain its code.
 *
 * `GET /api/scripts/{handle}/{host}/{slug}/versions`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listScriptVersions(options: OperationOptions<operations["listScriptVersions"]>): Promise<ListResult<ItemOf<operations["listScriptVersions"]>>> {
  return callListOperation(options, "get", "/api/scripts/{handle}/{host}/{slug}/versions");
}

/**
 * Add a draft version
 *
 * Creates a new draft version of a script. The script keeps running its current version until this draft is promoted.
 *
 * `POST /api/scripts/{handle}/{host}/{slug}/versions`
 */
export function createDraftScriptVersion(options: OperationOptions<operations["createDraftScriptVersion"]>): Promise<OperationResult<SuccessData<operations["createDraftScriptVersion"]>>> {
  return callOperation(options, "post", "/api/scripts/{handle}/{host}/{slug}/versions");
}

/**
 * Fetch a script version
 *
 * Returns a single version of a script, with its code and contract.
 *
 * `GET /api/scripts/{handle}/{host}/{slug}/versions/{versionId}`
 */
export function getScriptVersion(options: OperationOptions<operations["getScriptVersion"]>): Promise<OperationResult<SuccessData<operations["getScriptVersion"]>>> {
  return callOperation(options, "get", "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}");
}

/**
 * Discard a draft version
 *
 * Deletes a version that is still a draft.
 *
 * `DELETE /api/scripts/{handle}/{host}/{slug}/versions/{versionId}`
 */
export function deleteDraftScriptVersion(options: OperationOptions<operations["deleteDraftScriptVersion"]>): Promise<OperationResult<SuccessData<operations["deleteDraftScriptVersion"]>>> {
  return callOperation(options, "delete", "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}");
}

/**
 * Edit a draft version
 *
 * Edits a version that is still a draft.
 *
 * `PATCH /api/scripts/{handle}/{host}/{slug}/versions/{versionId}`
 */
export function patchDraftScriptVersion(options: OperationOptions<operations["patchDraftScriptVersion"]>): Promise<OperationResult<SuccessData<operations["patchDraftScriptVersion"]>>> {
  return callOperation(options, "patch", "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}");
}

/**
 * Promote a version
 *
 * Sets a version as the one the script executes; use this to revert to an earlier version as well. A promoted draft is no longer a draft.
 *
 * `POST /api/scripts/{handle}/{host}/{slug}/versions/{versionId}/promote`
 */
export function promoteScriptVersion(options: OperationOptions<operations["promoteScriptVersion"]>): Promise<OperationResult<SuccessData<operations["promoteScriptVersion"]>>> {
  return callOperation(options, "post", "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}/promote");
}

/**
 * List where a script can move
 *
 * Lists the scopes this script may be transferred to: your personal scope and any project in which you are allowed to create scripts.
 *
 * `GET /api/scripts/{handle}/{host}/{slug}/transfer`
 */
export function listScriptTransferTargets(options: OperationOptions<operations["listScriptTransferTargets"]>): Promise<OperationResult<SuccessData<operations["listScriptTransferTargets"]>>> {
  return callOperation(options, "get", "/api/scripts/{handle}/{host}/{slug}/transfer");
}

/**
 * Move a script to another scope
 *
 * Transfers a script into a different scope: either your personal scope or a project in which you are allowed to create scripts.
 *
 * `POST /api/scripts/{handle}/{host}/{slug}/transfer`
 */
export function transferScript(options: OperationOptions<operations["transferScript"]>): Promise<OperationResult<SuccessData<operations["transferScript"]>>> {
  return callOperation(options, "post", "/api/scripts/{handle}/{host}/{slug}/transfer");
}

/**
 * Fetch a host README
 *
 * Returns the README of a host: guidance an owner provides for all of their scripts on that site, such as rate limits, login oddities, or ordering rules. It is readable by anyone as long as the owner has at least one public, non-archived script on that host; otherwise access is limited to the owner and to members of the owning project.
 *
 * `GET /api/scripts/{handle}/{host}/readme`
 */
export function getHostReadme(options: OperationOptions<operations["getHostReadme"]>): Promise<OperationResult<SuccessData<operations["getHostReadme"]>>> {
  return callOperation(options, "get", "/api/scripts/{handle}/{host}/readme");
}

/**
 * Write a host README
 *
 * Sets the README of a host: guidance that applies to all of the owner's scripts for that site. A later call overwrites the earlier text. Allowed for the owner and for any project member with permission to update the project's scripts.
 *
 * `PUT /api/scripts/{handle}/{host}/readme`
 */
export function setHostReadme(options: OperationOptions<operations["setHostReadme"]>): Promise<OperationResult<SuccessData<operations["setHostReadme"]>>> {
  return callOperation(options, "put", "/api/scripts/{handle}/{host}/readme");
}

/**
 * Remove a host README
 *
 * Removes the README of a host. Allowed for the owner and for any project member with permission to update the project's scripts.
 *
 * `DELETE /api/scripts/{handle}/{host}/readme`
 */
export function deleteHostReadme(options: OperationOptions<operations["deleteHostReadme"]>): Promise<OperationResult<SuccessData<operations["deleteHostReadme"]>>> {
  return callOperation(options, "delete", "/api/scripts/{handle}/{host}/readme");
}

/**
 * Fetch the current account
 *
 * Returns the account that owns these credentials and the projects it may act within. The handle stays null until a username is chosen, and the account's personal scope is not addressable before that.
 *
 * `GET /api/me`
 */
export function getMe(options: OperationOptions<operations["getMe"]>): Promise<OperationResult<SuccessData<operations["getMe"]>>> {
  return callOperation(options, "get", "/api/me");
}

/**
 * List your connectors
 *
 * Lists your connectors alphabetically, one for each website. Only summaries are returned; listings never contain cookies.
 *
 * `GET /api/connectors`
 */
export function listConnectors(options: OperationOptions<operations["listConnectors"]>): Promise<OperationResult<SuccessData<operations["listConnectors"]>>> {
  return callOperation(options, "get", "/api/connectors");
}

/**
 * Fetch a connector
 *
 * Returns the connector you own for a host, with its cookies, in a form a run can inject. If the host has no connector itself, the closest parent host's connector is used; if neither exists, the response is 404.
 *
 * `GET /api/connectors/{host}`
 */
export function getConnector(options: OperationOptions<operations["getConnector"]>): Promise<OperationResult<SuccessData<operations["getConnector"]>>> {
  return callOperation(options, "get", "/api/connectors/{host}");
}

/**
 * Upload a connector
 *
 * Overwrites the cookies in the connector you own for a host; the first upload creates the connector. All cookies must belong to that host. The browser extension uses this to upload cookies for a site, and runs use it to save refreshed cookies.
 *
 * `PUT /api/connectors/{host}`
 */
export function putConnector(options: OperationOptions<operations["putConnector"]>): Promise<OperationResult<SuccessData<operations["putConnector"]>>> {
  return callOperation(options, "put", "/api/connectors/{host}");
}

/**
 * Remove a connector
 *
 * Removes the connector you hold for a host, along with its stored cookies.
 *
 * `DELETE /api/connectors/{host}`
 */
export function deleteConnector(options: OperationOptions<operations["deleteConnector"]>): Promise<OperationResult<SuccessData<operations["deleteConnector"]>>> {
  return callOperation(options, "delete", "/api/connectors/{host}");
}

/**
 * Fetch the CLI version
 *
 * Returns the latest version of the Reduck CLI. Public endpoint; requires no credentials.
 *
 * `GET /api/version`
 */
export function getVersion(options: OperationOptions<operations["getVersion"]>): Promise<OperationResult<SuccessData<operations["getVersion"]>>> {
  return callOperation(options, "get", "/api/version");
}

/**
 * Check liveness
 *
 * Health check that always returns `{ message: "pong" }`. Public endpoint; requires no credentials.
 *
 * `GET /api/ping`
 */
export function getPing(options: OperationOptions<operations["getPing"]>): Promise<OperationResult<SuccessData<operations["getPing"]>>> {
  return callOperation(options, "get", "/api/ping");
}

/** Every operation of openapi.json: its HTTP method, path template and whether it answers with a page. */
export const operationTable = {
  listDevices: { method: "get", path: "/api/devices", paginated: false },
  listRuns: { method: "get", path: "/api/runs", paginated: true },
  getRun: { method: "get", path: "/api/runs/{runId}", paginated: false },
  deleteRun: { method: "delete", path: "/api/runs/{runId}", paginated: false },
  batchDeleteRuns: { method: "post", path: "/api/runs/delete", paginated: false },
  getRunTrace: { method: "get", path: "/api/runs/{runId}/trace", paginated: false },
  getScript: { method: "get", path: "/api/scripts/{handle}/{host}/{slug}", paginated: false },
  patchScript: { method: "patch", path: "/api/scripts/{handle}/{host}/{slug}", paginated: false },
  listScripts: { method: "get", path: "/api/scripts/{handle}", paginated: true },
  createScript: { method: "post", path: "/api/scripts/{handle}", paginated: false },
  listAllScripts: { method: "get", path: "/api/scripts", paginated: true },
  publishScript: { method: "post", path: "/api/scripts/{handle}/{host}/{slug}/publish", paginated: false },
  unpublishScript: { method: "post", path: "/api/scripts/{handle}/{host}/{slug}/unpublish", paginated: false },
  archiveScript: { method: "post", path: "/api/scripts/{handle}/{host}/{slug}/archive", paginated: false },
  restoreScript: { method: "post", path: "/api/scripts/{handle}/{host}/{slug}/restore", paginated: false },
  listScriptVersions: { method: "get", path: "/api/scripts/{handle}/{host}/{slug}/versions", paginated: true },
  createDraftScriptVersion: { method: "post", path: "/api/scripts/{handle}/{host}/{slug}/versions", paginated: false },
  getScriptVersion: { method: "get", path: "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}", paginated: false },
  deleteDraftScriptVersion: { method: "delete", path: "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}", paginated: false },
  patchDraftScriptVersion: { method: "patch", path: "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}", paginated: false },
  promoteScriptVersion: { method: "post", path: "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}/promote", paginated: false },
  listScriptTransferTargets: { method: "get", path: "/api/scripts/{handle}/{host}/{slug}/transfer", paginated: false },
  transferScript: { method: "post", path: "/api/scripts/{handle}/{host}/{slug}/transfer", paginated: false },
  getHostReadme: { method: "get", path: "/api/scripts/{handle}/{host}/readme", paginated: false },
  setHostReadme: { method: "put", path: "/api/scripts/{handle}/{host}/readme", paginated: false },
  deleteHostReadme: { method: "delete", path: "/api/scripts/{handle}/{host}/readme", paginated: false },
  getMe: { method: "get", path: "/api/me", paginated: false },
  listConnectors: { method: "get", path: "/api/connectors", paginated: false },
  getConnector: { method: "get", path: "/api/connectors/{host}", paginated: false },
  putConnector: { method: "put", path: "/api/connectors/{host}", paginated: false },
  deleteConnector: { method: "delete", path: "/api/connectors/{host}", paginated: false },
  getVersion: { method: "get", path: "/api/version", paginated: false },
  getPing: { method: "get", path: "/api/ping", paginated: false },
} as const;

export type OperationId = keyof typeof operationTable;
