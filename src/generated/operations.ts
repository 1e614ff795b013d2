// Written by `npm run generate` from openapi.json. Do not edit by hand.

import type { operations } from "./schema.js";
import { callOperation, callListOperation } from "../core/call.js";
import type { OperationOptions, OperationResult, ListResult, SuccessData, ItemOf } from "../core/types.js";

export { operationTable, type OperationId } from "./operation-table.js";

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
 * Every app you can reach
 *
 * Lists the apps you can open, most recent first: those in your personal scope and those of every project you are a member of.
 *
 * `GET /api/apps`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listAllApps(options: OperationOptions<operations["listAllApps"]>): Promise<ListResult<ItemOf<operations["listAllApps"]>>> {
  return callListOperation(options, "get", "/api/apps");
}

/**
 * Apps of one owner
 *
 * Lists the apps that belong to one owner's scope, most recent first.
 *
 * `GET /api/apps/{handle}`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listApps(options: OperationOptions<operations["listApps"]>): Promise<ListResult<ItemOf<operations["listApps"]>>> {
  return callListOperation(options, "get", "/api/apps/{handle}");
}

/**
 * Install an app
 *
 * Makes a new app from an image, in one owner's scope. The app starts empty, with a database, stored files and secret values of its own, and always serves the release its image currently points to, including releases deployed later.
 *
 * `POST /api/apps/{handle}`
 */
export function createApp(options: OperationOptions<operations["createApp"]>): Promise<OperationResult<SuccessData<operations["createApp"]>>> {
  return callOperation(options, "post", "/api/apps/{handle}");
}

/**
 * Fetch an app
 *
 * Returns one app, with the release it currently serves.
 *
 * `GET /api/apps/{handle}/{appId}`
 */
export function getApp(options: OperationOptions<operations["getApp"]>): Promise<OperationResult<SuccessData<operations["getApp"]>>> {
  return callOperation(options, "get", "/api/apps/{handle}/{appId}");
}

/**
 * Uninstall an app
 *
 * Removes an app together with its data, its stored files and its secrets.
 *
 * `DELETE /api/apps/{handle}/{appId}`
 */
export function uninstallApp(options: OperationOptions<operations["uninstallApp"]>): Promise<OperationResult<SuccessData<operations["uninstallApp"]>>> {
  return callOperation(options, "delete", "/api/apps/{handle}/{appId}");
}

/**
 * Rename an app
 *
 * Changes an app's name, the only thing an installed app holds for itself: its description and behaviour come from its image, and who may open it follows from its scope.
 *
 * `PATCH /api/apps/{handle}/{appId}`
 */
export function updateApp(options: OperationOptions<operations["updateApp"]>): Promise<OperationResult<SuccessData<operations["updateApp"]>>> {
  return callOperation(options, "patch", "/api/apps/{handle}/{appId}");
}

/**
 * An app's update history
 *
 * The releases of the image this app was installed from, most recent first, each with what happened to it in this app: `installed` when the app runs it, `pending` when the app has not got to it, `failed` when its schema change could not be applied, leaving the app on the earlier release. Apps have no releases of their own; this is the image's history as seen by one app.
 *
 * `GET /api/apps/{handle}/{appId}/updates`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listAppUpdates(options: OperationOptions<operations["listAppUpdates"]>): Promise<ListResult<ItemOf<operations["listAppUpdates"]>>> {
  return callListOperation(options, "get", "/api/apps/{handle}/{appId}/updates");
}

/**
 * Names of an app's secrets
 *
 * Lists the names of an app's secrets. A secret's value can be written but never read: no operation returns it.
 *
 * `GET /api/apps/{handle}/{appId}/secrets`
 */
export function getAppSecrets(options: OperationOptions<operations["getAppSecrets"]>): Promise<OperationResult<SuccessData<operations["getAppSecrets"]>>> {
  return callOperation(options, "get", "/api/apps/{handle}/{appId}/secrets");
}

/**
 * Set or remove app secrets
 *
 * Writes or deletes several of an app's secrets in one request.
 *
 * `PATCH /api/apps/{handle}/{appId}/secrets`
 */
export function updateAppSecrets(options: OperationOptions<operations["updateAppSecrets"]>): Promise<OperationResult<SuccessData<operations["updateAppSecrets"]>>> {
  return callOperation(options, "patch", "/api/apps/{handle}/{appId}/secrets");
}

/**
 * Tools an app offers
 *
 * Returns the tools an agent may call on this app, as declared under `tools` in the manifest of the release the app runs: each tool's name, description, and JSON Schemas for its input and its output. When the app is behind its image, the list is that older release's, since those are the tasks the app can actually run. An empty list means the app offers no tools.
 *
 * `GET /api/apps/{handle}/{appId}/tools`
 */
export function getAppTools(options: OperationOptions<operations["getAppTools"]>): Promise<OperationResult<SuccessData<operations["getAppTools"]>>> {
  return callOperation(options, "get", "/api/apps/{handle}/{appId}/tools");
}

/**
 * Every app image you can reach
 *
 * Lists the images you can install from: yours, your projects', and those in the public catalogue. With `catalogueOnly=true` only the public catalogue is listed, and no credential is needed.
 *
 * `GET /api/app-images`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listAllAppImages(options: OperationOptions<operations["listAllAppImages"]>): Promise<ListResult<ItemOf<operations["listAllAppImages"]>>> {
  return callListOperation(options, "get", "/api/app-images");
}

/**
 * App images of one owner
 *
 * Lists the images owned by one handle, private ones too. Only members of that scope may list them; public images of other scopes are found through the catalogue.
 *
 * `GET /api/app-images/{handle}`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listAppImages(options: OperationOptions<operations["listAppImages"]>): Promise<ListResult<ItemOf<operations["listAppImages"]>>> {
  return callListOperation(options, "get", "/api/app-images/{handle}");
}

/**
 * Create an app image
 *
 * Makes a new image, something apps are installed from, in one owner's scope. It is private and has no release at first, so it cannot be installed until a release is published.
 *
 * `POST /api/app-images/{handle}`
 */
export function createAppImage(options: OperationOptions<operations["createAppImage"]>): Promise<OperationResult<SuccessData<operations["createAppImage"]>>> {
  return callOperation(options, "post", "/api/app-images/{handle}");
}

/**
 * Fetch an app image
 *
 * Returns one image, with the install contract of the release it serves.
 *
 * `GET /api/app-images/{handle}/{slug}`
 */
export function getAppImage(options: OperationOptions<operations["getAppImage"]>): Promise<OperationResult<SuccessData<operations["getAppImage"]>>> {
  return callOperation(options, "get", "/api/app-images/{handle}/{slug}");
}

/**
 * Update an app image
 *
 * Changes an image's name, description, about text, or whether the public catalogue lists it. Its slug is its address and stays as it is.
 *
 * `PATCH /api/app-images/{handle}/{slug}`
 */
export function updateAppImage(options: OperationOptions<operations["updateAppImage"]>): Promise<OperationResult<SuccessData<operations["updateAppImage"]>>> {
  return callOperation(options, "patch", "/api/app-images/{handle}/{slug}");
}

/**
 * Restore an app image
 *
 * Brings an archived image back, whole, since archiving removed nothing.
 *
 * `POST /api/app-images/{handle}/{slug}/archive`
 */
export function restoreAppImage(options: OperationOptions<operations["restoreAppImage"]>): Promise<OperationResult<SuccessData<operations["restoreAppImage"]>>> {
  return callOperation(options, "post", "/api/app-images/{handle}/{slug}/archive");
}

/**
 * Archive an app image
 *
 * Withdraws an image: apps installed from it go on running, but it accepts no new installs or releases and no listing shows it.
 *
 * `DELETE /api/app-images/{handle}/{slug}/archive`
 */
export function archiveAppImage(options: OperationOptions<operations["archiveAppImage"]>): Promise<OperationResult<SuccessData<operations["archiveAppImage"]>>> {
  return callOperation(options, "delete", "/api/app-images/{handle}/{slug}/archive");
}

/**
 * Releases of an app image
 *
 * Lists an image's releases (its deploys), most recent first.
 *
 * `GET /api/app-images/{handle}/{slug}/releases`
 *
 * Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.
 */
export function listAppImageReleases(options: OperationOptions<operations["listAppImageReleases"]>): Promise<ListResult<ItemOf<operations["listAppImageReleases"]>>> {
  return callListOperation(options, "get", "/api/app-images/{handle}/{slug}/releases");
}

/**
 * Start a release
 *
 * Opens a deploy: takes the next release number and returns one presigned upload for each file. Files are sent directly to storage, not to this API, and the release is served only once it is published.
 *
 * `POST /api/app-images/{handle}/{slug}/releases`
 */
export function startAppImageRelease(options: OperationOptions<operations["startAppImageRelease"]>): Promise<OperationResult<SuccessData<operations["startAppImageRelease"]>>> {
  return callOperation(options, "post", "/api/app-images/{handle}/{slug}/releases");
}

/**
 * Fetch a release
 *
 * Returns one release, by number: its files, the hosts it may call, its default settings and its install contract.
 *
 * `GET /api/app-images/{handle}/{slug}/releases/{releaseNumber}`
 */
export function getAppImageRelease(options: OperationOptions<operations["getAppImageRelease"]>): Promise<OperationResult<SuccessData<operations["getAppImageRelease"]>>> {
  return callOperation(options, "get", "/api/app-images/{handle}/{slug}/releases/{releaseNumber}");
}

/**
 * Publish a release
 *
 * Completes a deploy: verifies that every file was uploaded, then makes the release the one served. Apps installed from the image switch to it the next time they load. Publishing an already published release gives the same answer again, so a request whose answer was lost is safe to repeat.
 *
 * `POST /api/app-images/{handle}/{slug}/releases/{releaseNumber}/publish`
 */
export function publishAppImageRelease(options: OperationOptions<operations["publishAppImageRelease"]>): Promise<OperationResult<SuccessData<operations["publishAppImageRelease"]>>> {
  return callOperation(options, "post", "/api/app-images/{handle}/{slug}/releases/{releaseNumber}/publish");
}

/**
 * Roll back an app image
 *
 * Makes an earlier release the one served, by number. Releases never change and are never deleted, so rolling forward again undoes it; every installed app moves with it.
 *
 * `POST /api/app-images/{handle}/{slug}/rollback`
 */
export function rollbackAppImage(options: OperationOptions<operations["rollbackAppImage"]>): Promise<OperationResult<SuccessData<operations["rollbackAppImage"]>>> {
  return callOperation(options, "post", "/api/app-images/{handle}/{slug}/rollback");
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
