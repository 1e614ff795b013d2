// Written by `npm run generate` from openapi.json. Do not edit by hand.

export interface paths {
    "/api/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your devices
         * @description Returns the devices registered on your account.
         */
        get: operations["listDevices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your runs
         * @description Returns your automation runs, newest first.
         */
        get: operations["listRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{runId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a run
         * @description Returns a single run of yours, looked up by id.
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        /**
         * Remove a run
         * @description Removes a completed run along with its recorded trace.
         */
        delete: operations["deleteRun"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete several runs at once
         * @description Removes as many as 100 runs, given by id, in a single request. Ids that cannot be removed are listed as skipped; the rest of the batch still proceeds.
         */
        post: operations["batchDeleteRuns"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/runs/{runId}/trace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a run's trace
         * @description Returns the trace recorded by a run.
         */
        get: operations["getRunTrace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a script
         * @description Returns a single script identified by its canonical identity, along with its current version. Public scripts can be read by any caller, authenticated or anonymous; private scripts only by their owner or by members of the owning project.
         */
        get: operations["getScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Edit a script
         * @description Edits the metadata of a script that can be changed.
         */
        patch: operations["patchScript"];
        trace?: never;
    };
    "/api/scripts/{handle}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an owner's scripts
         * @description Lists scripts belonging to a single handle. The owner, and every project member when the handle is a project, can see all of its scripts; any other caller sees only the owner's public ones.
         */
        get: operations["listScripts"];
        put?: never;
        /**
         * Create a script
         * @description Creates a script for an owner handle and its initial version in a single request.
         */
        post: operations["createScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List scripts across owners
         * @description Lists scripts. A signed-in caller receives a list spanning owners: their own scripts, scripts of projects they belong to, and the official catalogue. A caller without credentials receives only the official catalogue.
         */
        get: operations["listAllScripts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/{slug}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a script public
         * @description Makes a script public so that anyone can read it.
         */
        post: operations["publishScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/{slug}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a script private
         * @description Makes a script private once more. Archived scripts can be unpublished as well.
         */
        post: operations["unpublishScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/{slug}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a script
         * @description Archives a script. Archived scripts drop out of the cross-owner listing; a listing limited to the owner still includes them unless archived scripts are filtered out. While the archived script exists its host and slug remain reserved, which prevents any other script from taking them; a public archived script can still be read directly.
         */
        post: operations["archiveScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/{slug}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unarchive a script
         * @description Brings an archived script back.
         */
        post: operations["restoreScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/{slug}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a script's versions
         * @description Lists the versions of a script, most recent first. Fetch an individual version to obtain its code.
         */
        get: operations["listScriptVersions"];
        put?: never;
        /**
         * Add a draft version
         * @description Creates a new draft version of a script. The script keeps running its current version until this draft is promoted.
         */
        post: operations["createDraftScriptVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a script version
         * @description Returns a single version of a script, with its code and contract.
         */
        get: operations["getScriptVersion"];
        put?: never;
        post?: never;
        /**
         * Discard a draft version
         * @description Deletes a version that is still a draft.
         */
        delete: operations["deleteDraftScriptVersion"];
        options?: never;
        head?: never;
        /**
         * Edit a draft version
         * @description Edits a version that is still a draft.
         */
        patch: operations["patchDraftScriptVersion"];
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/{slug}/versions/{versionId}/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Promote a version
         * @description Sets a version as the one the script executes; use this to revert to an earlier version as well. A promoted draft is no longer a draft.
         */
        post: operations["promoteScriptVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/{slug}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List where a script can move
         * @description Lists the scopes this script may be transferred to: your personal scope and any project in which you are allowed to create scripts.
         */
        get: operations["listScriptTransferTargets"];
        put?: never;
        /**
         * Move a script to another scope
         * @description Transfers a script into a different scope: either your personal scope or a project in which you are allowed to create scripts.
         */
        post: operations["transferScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scripts/{handle}/{host}/readme": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a host README
         * @description Returns the README of a host: guidance an owner provides for all of their scripts on that site, such as rate limits, login oddities, or ordering rules. It is readable by anyone as long as the owner has at least one public, non-archived script on that host; otherwise access is limited to the owner and to members of the owning project.
         */
        get: operations["getHostReadme"];
        /**
         * Write a host README
         * @description Sets the README of a host: guidance that applies to all of the owner's scripts for that site. A later call overwrites the earlier text. Allowed for the owner and for any project member with permission to update the project's scripts.
         */
        put: operations["setHostReadme"];
        post?: never;
        /**
         * Remove a host README
         * @description Removes the README of a host. Allowed for the owner and for any project member with permission to update the project's scripts.
         */
        delete: operations["deleteHostReadme"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch the current account
         * @description Returns the account that owns these credentials and the projects it may act within. The handle stays null until a username is chosen, and the account's personal scope is not addressable before that.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your connectors
         * @description Lists your connectors alphabetically, one for each website. Only summaries are returned; listings never contain cookies.
         */
        get: operations["listConnectors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connectors/{host}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a connector
         * @description Returns the connector you own for a host, with its cookies, in a form a run can inject. If the host has no connector itself, the closest parent host's connector is used; if neither exists, the response is 404.
         */
        get: operations["getConnector"];
        /**
         * Upload a connector
         * @description Overwrites the cookies in the connector you own for a host; the first upload creates the connector. All cookies must belong to that host. The browser extension uses this to upload cookies for a site, and runs use it to save refreshed cookies.
         */
        put: operations["putConnector"];
        post?: never;
        /**
         * Remove a connector
         * @description Removes the connector you hold for a host, along with its stored cookies.
         */
        delete: operations["deleteConnector"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every app you can reach
         * @description Lists the apps you can open, most recent first: those in your personal scope and those of every project you are a member of.
         */
        get: operations["listAllApps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{handle}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Apps of one owner
         * @description Lists the apps that belong to one owner's scope, most recent first.
         */
        get: operations["listApps"];
        put?: never;
        /**
         * Install an app
         * @description Makes a new app from an image, in one owner's scope. The app starts empty, with a database, stored files and secret values of its own, and always serves the release its image currently points to, including releases deployed later.
         */
        post: operations["createApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{handle}/{appId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch an app
         * @description Returns one app, with the release it currently serves.
         */
        get: operations["getApp"];
        put?: never;
        post?: never;
        /**
         * Uninstall an app
         * @description Removes an app together with its data, its stored files and its secrets.
         */
        delete: operations["uninstallApp"];
        options?: never;
        head?: never;
        /**
         * Rename an app
         * @description Changes an app's name, the only thing an installed app holds for itself: its description and behaviour come from its image, and who may open it follows from its scope.
         */
        patch: operations["updateApp"];
        trace?: never;
    };
    "/api/apps/{handle}/{appId}/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An app's update history
         * @description The releases of the image this app was installed from, most recent first, each with what happened to it in this app: `installed` when the app runs it, `pending` when the app has not got to it, `failed` when its schema change could not be applied, leaving the app on the earlier release. Apps have no releases of their own; this is the image's history as seen by one app.
         */
        get: operations["listAppUpdates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/apps/{handle}/{appId}/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Names of an app's secrets
         * @description Lists the names of an app's secrets. A secret's value can be written but never read: no operation returns it.
         */
        get: operations["getAppSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set or remove app secrets
         * @description Writes or deletes several of an app's secrets in one request.
         */
        patch: operations["updateAppSecrets"];
        trace?: never;
    };
    "/api/apps/{handle}/{appId}/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tools an app offers
         * @description Returns the tools an agent may call on this app, as declared under `tools` in the manifest of the release the app runs: each tool's name, description, and JSON Schemas for its input and its output. When the app is behind its image, the list is that older release's, since those are the tasks the app can actually run. An empty list means the app offers no tools.
         */
        get: operations["getAppTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app-images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every app image you can reach
         * @description Lists the images you can install from: yours, your projects', and those in the public catalogue. With `catalogueOnly=true` only the public catalogue is listed, and no credential is needed.
         */
        get: operations["listAllAppImages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app-images/{handle}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * App images of one owner
         * @description Lists the images owned by one handle, private ones too. Only members of that scope may list them; public images of other scopes are found through the catalogue.
         */
        get: operations["listAppImages"];
        put?: never;
        /**
         * Create an app image
         * @description Makes a new image, something apps are installed from, in one owner's scope. It is private and has no release at first, so it cannot be installed until a release is published.
         */
        post: operations["createAppImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app-images/{handle}/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch an app image
         * @description Returns one image, with the install contract of the release it serves.
         */
        get: operations["getAppImage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update an app image
         * @description Changes an image's name, description, about text, or whether the public catalogue lists it. Its slug is its address and stays as it is.
         */
        patch: operations["updateAppImage"];
        trace?: never;
    };
    "/api/app-images/{handle}/{slug}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore an app image
         * @description Brings an archived image back, whole, since archiving removed nothing.
         */
        post: operations["restoreAppImage"];
        /**
         * Archive an app image
         * @description Withdraws an image: apps installed from it go on running, but it accepts no new installs or releases and no listing shows it.
         */
        delete: operations["archiveAppImage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app-images/{handle}/{slug}/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Releases of an app image
         * @description Lists an image's releases (its deploys), most recent first.
         */
        get: operations["listAppImageReleases"];
        put?: never;
        /**
         * Start a release
         * @description Opens a deploy: takes the next release number and returns one presigned upload for each file. Files are sent directly to storage, not to this API, and the release is served only once it is published.
         */
        post: operations["startAppImageRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app-images/{handle}/{slug}/releases/{releaseNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch a release
         * @description Returns one release, by number: its files, the hosts it may call, its default settings and its install contract.
         */
        get: operations["getAppImageRelease"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app-images/{handle}/{slug}/releases/{releaseNumber}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a release
         * @description Completes a deploy: verifies that every file was uploaded, then makes the release the one served. Apps installed from the image switch to it the next time they load. Publishing an already published release gives the same answer again, so a request whose answer was lost is safe to repeat.
         */
        post: operations["publishAppImageRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app-images/{handle}/{slug}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll back an app image
         * @description Makes an earlier release the one served, by number. Releases never change and are never deleted, so rolling forward again undoes it; every installed app moves with it.
         */
        post: operations["rollbackAppImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fetch the CLI version
         * @description Returns the latest version of the Reduck CLI. Public endpoint; requires no credentials.
         */
        get: operations["getVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check liveness
         * @description Health check that always returns `{ message: "pong" }`. Public endpoint; requires no credentials.
         */
        get: operations["getPing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a script, with files
         * @description Runs one catalogue script, or several, and answers with the outcome. Served by the run host (`https://mcp.reduck.ai`), not under `/api`. Two request forms: JSON, where files are named (`relativePath`) or inline (`b64` + `mime`) and the body is at most 100 KB; or multipart, with the run request as JSON in a `spec` part and each file's bytes in a part named `<step>:<input>` (step `0` for a single `script`), at most 50 MB per file. Bytes carry no file name: such a file reaches the page named after its input. Answers (published, from the documentation and the service's own REST client): 200 with `{ result, runId }` for one `script`; 200 with an array of envelopes, one per script in order, for `scripts`; 202 with a batch when the run outlives `waitForSeconds` (poll `GET /batches/{batchId}` on the run host). Our inference (not published): for one `script` that outlives `waitForSeconds`, a 202 with one in-flight envelope `{ status, runId, retryAfterMs }`; wait on it with `GET /api/runs/{runId}` until its status is `success`, `error` or `cancelled`. Clients should also accept a batch there. A run request may be carried out even when its answer is lost, so clients must not repeat it on their own; polling is a read and may be retried.
         */
        post: operations["runScript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{batchId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a batch of runs
         * @description Where a batch stands: the answer to poll after a 202 from `POST /run`. Served by the run host (`https://mcp.reduck.ai`), not under `/api`, with the same credential as the run. Published (the service's own REST client): while `status` is `queued` or `running`, wait `retryAfterMs` (2000 ms when absent) and ask again; `completed` or `failed` is final and `runs` then holds one envelope per script, in order. Ours: 404 for a batch id this account never received (another account's included).
         */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Device: {
            id: string;
            name: string | null;
            browser: string | null;
            os: string | null;
            file_access: boolean | null;
            /** @description Indicates whether a wake-up can be tried: the device holds a Web Push subscription that has not been reported as invalid. It does NOT mean the browser is running. Pushes sent to a closed Chrome are accepted and queued, so the value stays true until the subscription gets revoked (for example the extension is removed, site data is cleared, or the push service expires it). Runs on a `reachable` device whose browser is shut down fail when the browser does not respond over CDP. */
            reachable: boolean;
            created_at: string;
            concurrency_budget: number;
        };
        PaginatedResponseRun: {
            data: components["schemas"]["Run"][];
            hasNextPage: boolean;
            totalCount?: number;
        };
        Run: {
            id: string;
            user_id: string;
            name: string;
            browser: components["schemas"]["RunDevice"];
            args: Record<string, unknown>;
            status: components["schemas"]["RunStatus"];
            result: components["schemas"]["RunResult"] | null;
            source: components["schemas"]["RunSource"];
            started_at: string;
            finished_at: string | null;
            script: {
                id: string;
                version_id: string;
                version_number: string;
                name: string;
                handle: string;
                slug: string;
                host: string;
            } | null;
        };
        RunDevice: {
            /** @constant */
            type: "managed";
            region: string;
            country: string;
        } | {
            /** @constant */
            type: "extension";
        };
        /** @enum {string} */
        RunStatus: "cancelled" | "error" | "queued" | "running" | "success";
        RunResult: {
            result: Record<string, unknown>;
        } | {
            error: string;
        };
        /** @enum {string} */
        RunSource: "cli" | "mcp" | "rest";
        ScriptWithVersion: {
            id: string;
            name: string;
            slug: string;
            host: string;
            description: string;
            /** @enum {string} */
            visibility: "private" | "public";
            current_version_id: string | null;
            archived_at: string | null;
            created_at: string;
            updated_at: string;
            author: components["schemas"]["ScriptAuthor"];
            execution_count: number;
            last_run_at: string | null;
            success_rate: number | null;
            avg_time_ms: number | null;
            version_count: number;
            human_required: boolean;
            current_version: components["schemas"]["ScriptVersion"] | null;
        };
        ScriptAuthor: {
            kind: components["schemas"]["ScriptAuthorKind"];
            handle: string;
            name: string;
            approval: components["schemas"]["ScriptAuthorApproved"];
        };
        /** @enum {string} */
        ScriptAuthorKind: "user" | "project";
        /** @enum {string} */
        ScriptAuthorApproved: "official" | "trusted" | "unverified";
        ScriptVersion: {
            id: string;
            script_id: string;
            version_number: number;
            parent_version_id: string | null;
            language: string;
            logged_in: boolean;
            side_effects: components["schemas"]["ScriptSideEffects"];
            draft: boolean;
            /** @description Reason this version was created. Not included for official scripts unless you are a member of the owning project, and never present on the version embedded in a script listing. */
            note?: string | null;
            /** @description The account that saved this version. Not the same as the script's `author` field, which holds the OWNER, either a user or a project; since project members edit a project's script individually, this field names the member who did. Null if that account has been deleted since. */
            created_by: {
                handle: string;
                name: string;
            } | null;
            created_at: string;
            execution_count: number;
            last_run_at: string | null;
            success_rate: number | null;
            avg_time_ms: number | null;
            /** @description Source code of the version. Not included for official scripts unless you are a member of the owning project. */
            content?: string;
            input_schema: {
                [key: string]: unknown;
            };
            output_schema: {
                [key: string]: unknown;
            };
        };
        /** @enum {string} */
        ScriptSideEffects: "none" | "undetermined" | "write";
        PaginatedResponseScriptSummary: {
            data: components["schemas"]["ScriptSummary"][];
            hasNextPage: boolean;
            totalCount?: number;
        };
        ScriptSummary: {
            id: string;
            name: string;
            slug: string;
            host: string;
            description: string;
            /** @enum {string} */
            visibility: "private" | "public";
            current_version_id: string | null;
            archived_at: string | null;
            created_at: string;
            updated_at: string;
            author: components["schemas"]["ScriptAuthor"];
            execution_count: number;
            last_run_at: string | null;
            success_rate: number | null;
            avg_time_ms: number | null;
            version_count: number;
            human_required: boolean;
            current_version: components["schemas"]["ScriptVersionSummary"] | null;
        };
        ScriptVersionSummary: {
            id: string;
            script_id: string;
            version_number: number;
            parent_version_id: string | null;
            language: string;
            logged_in: boolean;
            side_effects: components["schemas"]["ScriptSideEffects"];
            draft: boolean;
            /** @description Reason this version was created. Not included for official scripts unless you are a member of the owning project, and never present on the version embedded in a script listing. */
            note?: string | null;
            /** @description The account that saved this version. Not the same as the script's `author` field, which holds the OWNER, either a user or a project; since project members edit a project's script individually, this field names the member who did. Null if that account has been deleted since. */
            created_by: {
                handle: string;
                name: string;
            } | null;
            created_at: string;
            execution_count: number;
            last_run_at: string | null;
            success_rate: number | null;
            avg_time_ms: number | null;
        };
        PaginatedResponseScriptVersionSummary: {
            data: components["schemas"]["ScriptVersionSummary"][];
            hasNextPage: boolean;
            totalCount?: number;
        };
        /** @description Changes this draft makes relative to its parent version; included with the version in create and patch responses. */
        VersionDiff: {
            code?: string;
            fields: components["schemas"]["VersionDiffFields"];
        };
        TransferTarget: {
            /**
             * @description Target namespace type: either a project or a personal scope.
             * @enum {string}
             */
            kind: "user" | "project";
            handle: string;
            name: string;
            /** @description Whether, after the transfer, the caller would be able to transfer the script out of this scope again. */
            can_transfer_out: boolean;
        };
        HostReadme: {
            host: string;
            content: string;
            created_at: string;
            updated_at: string;
        };
        ManagedUsage: {
            browser_minutes: components["schemas"]["ManagedQuota"];
            proxy_mb: components["schemas"]["ManagedQuota"];
            runs: components["schemas"]["ManagedQuota"];
            period_end: string;
        };
        ManagedQuota: {
            used: number;
            limit: number | null;
        };
        Connector: {
            id: string;
            /** @description Bare website name, with no scheme and no leading "www."; for example "linkedin.com". */
            host: string;
            created_at: string;
            updated_at: string;
        };
        ConnectorWithCookies: {
            cookies: components["schemas"]["ConnectorCookie"][];
            id: string;
            /** @description Bare website name, with no scheme and no leading "www."; for example "linkedin.com". */
            host: string;
            created_at: string;
            updated_at: string;
        };
        ConnectorCookie: {
            name: string;
            value: string;
            domain: string;
            path: string;
            /** @description A timestamp in Unix seconds. */
            expires: number;
            httpOnly: boolean;
            secure: boolean;
            /** @enum {string} */
            sameSite?: "Strict" | "Lax" | "None";
        };
        ErrorResponse: {
            error?: string;
            variables?: {
                [key: string]: string[];
            };
        };
        VersionDiffFields: {
            [key: string]: {
                from: string;
                to: string;
            };
        };
        /** @description How a file reaches a file input in a JSON run request. A named file is read by the caller's own browser from the service folder on their desktop and keeps its name; an inline file travels in the body and counts toward the 100 KB limit. Bytes sent as multipart parts are not described here: they are parts named `<step>:<input>`. */
        FileBinding: {
            /** @description A path inside `<desktop>/reduck`, sub-folders allowed (`2026/invoice.pdf`). Absolute paths and `..` segments are refused. Only with `browser: "extension"`, and only when that browser may read file URLs. */
            relativePath: string;
        } | {
            /** @description The file's bytes, base64-encoded. */
            b64: string;
            /** @description The file's media type, e.g. `text/plain`. */
            mime: string;
        };
        /** @description Which script to run and with what. */
        RunScriptReference: {
            /** @description The site the script targets. */
            host: string;
            /** @description The script's name within its owner and host. */
            slug: string;
            /** @description The owner: `@username` for a person, a bare project handle for a project (`reduck` is the official catalogue). Omitted: the caller's own scripts. */
            handle?: string;
            /** @description Arguments by name, checked against the script's input schema. */
            args?: {
                [key: string]: unknown;
            };
            /** @description File inputs by name (properties of the input schema with `format: file`). */
            files?: {
                [key: string]: components["schemas"]["FileBinding"];
            };
            /**
             * Format: uuid
             * @description Run this version instead of the current one (a draft, for instance).
             */
            version_id?: string;
        };
        /** @description Where the run happens. Published: `"cloud"` is a hosted browser that starts signed out (the service stores it as `managed`, and it is the default when `browser` is absent); `"extension"` is the caller's own paired browser, picked automatically only when exactly one extension browser is paired (none or several is refused, with the ids listed); `{ deviceId }` is one particular paired browser. Ours: `"managed"` is accepted as another spelling of `"cloud"` (it is the label the service stores and shows in runs). Only an own browser can read a file named by `relativePath`. */
        RunBrowser: ("cloud" | "managed" | "extension") | {
            deviceId: string;
        };
        /** @description A run of one script (`script`) or of several (`scripts`). Give exactly one of the two. Published (the service's own REST client): `scripts` (at most 20), `sequential`, `browser`, `region`, `country` and `waitForSeconds`; `script` is the documented single-run form. */
        RunRequest: {
            script?: components["schemas"]["RunScriptReference"];
            /** @description Several scripts, at most 20 (the service's cap on one request). Without `sequential` each runs in its own browser at the same time and a failure does not stop the others; the answer has one outcome per script, in the order given. Script `i` is the `<step>` in multipart part names. */
            scripts?: components["schemas"]["RunScriptReference"][];
            /** @description Published: run `scripts` as a chain, in order, in one browser (each sees the cookies and page the previous one left, never its return value); the chain stops at the first failure and the scripts after it are still reported, one outcome each. Ours: those never-run outcomes are `failed` envelopes with `errorType: "not_run"` and no `runId`. */
            sequential?: boolean;
            browser?: components["schemas"]["RunBrowser"];
            /**
             * @description Published: how long the server holds the request before answering 202 with a pollable batch instead of the outcome; default 60, at most 110. Ours: a whole number of seconds.
             * @default 60
             */
            waitForSeconds: number;
            /**
             * @description Published: where the cloud browser runs. Cloud only: refused (400) with `"extension"` or `{ deviceId }`.
             * @enum {string}
             */
            region?: "eu-central-1" | "us-east-1" | "us-west-2" | "ap-southeast-1";
            /** @description Published: ISO 3166-1 alpha-2 country of the cloud browser's residential egress (counts toward the proxy allowance). Cloud only: refused (400) with `"extension"` or `{ deviceId }`. */
            country?: string;
        };
        /** @description The answer to a run of one `script` that finished within `waitForSeconds`. Published: `{ result, runId }`. Ours (inference from the envelope's rule): `result` is absent when the run ended with neither a result nor an error (seen with a paired browser signed out of the site); that is a failure, not a success. `null` is a real result. */
        RunResponse: {
            /** @description Whatever the script returned: its own JSON, shaped by its output schema. Absent: the run ended with no outcome (see above). */
            result?: unknown;
            /** Format: uuid */
            runId: string;
        };
        /** @description Why a run was refused or failed. Published: any answer other than 200 and 202 is a failure whose JSON body has an `error` string. Ours: `runId` is present once the run was recorded (every run whose script was found is recorded, failed or not), and a failed run also carries `errorType` and `externalMessage` as its envelope would (see `RunEnvelope`). */
        RunErrorResponse: {
            error: string;
            variables?: {
                [key: string]: string[];
            };
            /** Format: uuid */
            runId?: string;
            /** @description The failure's kind; see `RunEnvelope.errorType`. */
            errorType?: string;
            /** @description The failure in words meant for the person who asked for the run. */
            externalMessage?: string;
        };
        /** @description One run's outcome, or its handle while it is still going. Published (the service's own REST client): `{ status?, runId?, result?, error?, errorType?, externalMessage?, retryAfterMs? }`; a terminal run carries `result` or `error`, one in flight carries its handle and how long to wait; a run may also end with neither `result` nor `error` (seen with a device signed out of the site), which is a failure naming the run. Ours: the `errorType` values below, and never-run scripts of a stopped sequential chain as `{ status: "failed", errorType: "not_run", error, externalMessage }` without a `runId`. */
        RunEnvelope: {
            /**
             * @description `queued`/`running`: not finished (poll); `completed`: `result` holds the script's return value; `failed`: `error` says why.
             * @enum {string}
             */
            status?: "queued" | "running" | "completed" | "failed";
            /**
             * Format: uuid
             * @description The run, as `GET /api/runs/{runId}` knows it. Absent for a script that never ran.
             */
            runId?: string;
            /** @description The script's return value (any JSON, `null` included), when it completed. */
            result?: unknown;
            /** @description Why the run failed (the technical text). */
            error?: string;
            /** @description Published: a failure's kind. Ours (the sandbox's set): `invalid_input` (arguments or files do not fit the script's contract), `site_error` (the script failed on the site: it threw), `script_error` (the script itself is broken: it does not compile, or returned something that is not JSON, or went over a limit), `timeout` (it outlived its time limit), `browser_unavailable` (no browser could take it: no or several paired browsers, file access off, no connector for a cloud run), `not_run` (a sequential chain stopped before it). */
            errorType?: string;
            /** @description Published: the failure in words meant for the person who asked for the run; show it instead of `error` when present. */
            externalMessage?: string;
            /** @description Published: for a run in flight, how long to wait before asking again. */
            retryAfterMs?: number;
        };
        /** @description A batch of runs the server stopped holding the request for (a 202 to `POST /run`) or that `GET /batches/{batchId}` reports. Published (the service's own REST client): `{ batchId, status, runs, retryAfterMs? }`; while `status` is `queued` or `running`, wait `retryAfterMs` (2000 ms when absent) and ask again; once it is `completed` or `failed`, `runs` holds one final envelope per script, in order. A 202 is not a failure. Ours: `failed` when any script failed or never ran. */
        RunBatch: {
            /** Format: uuid */
            batchId: string;
            /** @enum {string} */
            status: "queued" | "running" | "completed" | "failed";
            /** @description One envelope per script, in the order given. */
            runs: components["schemas"]["RunEnvelope"][];
            retryAfterMs?: number;
        };
        PaginatedResponseAppSummary: {
            data: components["schemas"]["AppSummary"][];
            hasNextPage: boolean;
            totalCount?: number;
        };
        AppSummary: {
            id: string;
            /** @description The name the installer gave the app; it is the app's only text of its own, since what the app is (its description) comes from its image. */
            name: string;
            /** @description The scope that owns the app; every other app operation is addressed under its handle. */
            owner: components["schemas"]["AppOwner"];
            /** @description The image the app runs; null when the account that owned the image no longer exists. */
            image: components["schemas"]["AppImageRef"] | null;
            /** @description The release the app really serves: the newest release of its image whose migrations have all been applied to this app's database. Lower than `image.current_release` while an update has not reached this app. */
            current_release: number | null;
            /** @description When the release being served was deployed; null when nothing is served. */
            released_at: string | null;
            /** @description Number of the app's decisions still waiting for someone to rule on them. */
            pending_decisions: number;
            created_at: string;
            updated_at: string;
        };
        AppOwner: {
            /** @enum {string} */
            kind: "user" | "project";
            /** @description "@username" for a person's scope, the project's slug for a project. */
            handle: string;
            name: string;
        };
        AppImageRef: {
            /** @description "@username" or a project's slug: the first part of the image's address. */
            handle: string;
            slug: string;
            name: string;
            /** @description One line on what the app does; empty until its author writes it. */
            description: string;
            /** @description The release the image points to. An app gets there once that release's migrations have run on its own database, so the two numbers differ while an update is blocked. */
            current_release: number | null;
        };
        App: {
            id: string;
            /** @description The name the installer gave the app; it is the app's only text of its own, since what the app is (its description) comes from its image. */
            name: string;
            /** @description The scope that owns the app; every other app operation is addressed under its handle. */
            owner: components["schemas"]["AppOwner"];
            /** @description The image the app runs; null when the account that owned the image no longer exists. */
            image: components["schemas"]["AppImageRef"] | null;
            /** @description The release the app really serves: the newest release of its image whose migrations have all been applied to this app's database. Lower than `image.current_release` while an update has not reached this app. */
            current_release: number | null;
            /** @description When the release being served was deployed; null when nothing is served. */
            released_at: string | null;
            /** @description Number of the app's decisions still waiting for someone to rule on them. */
            pending_decisions: number;
            created_at: string;
            updated_at: string;
            /** @description The settings document that the app's page reads and writes through its `config` door. */
            config: unknown;
            /** @description The `.api-keys.json` of the release being served: hosts the app may call and the grant for each, with secret references kept as `${NAME}`, never the values. */
            api_grant: unknown;
            /** @description The app's secrets, names only. */
            secrets: components["schemas"]["AppSecret"][];
            /** @description The number of releases of the image; apps have no releases of their own. */
            release_count: number;
        };
        AppSecret: {
            name: string;
            /** @description Whether the image's manifest declares that the app needs it. False for a name the manifest does not declare: nothing in the app relies on it. */
            required: boolean;
            /** @description Whether requests started from the app's page may use this secret. The app's tasks (its server-side code) may use all of them either way. */
            pageUsable: boolean;
        };
        PaginatedResponseAppUpdate: {
            data: components["schemas"]["AppUpdate"][];
            hasNextPage: boolean;
            totalCount?: number;
        };
        AppUpdate: {
            /** @description Release number of the image. */
            version: number;
            /** @description When that release was published; null until its files are verified. */
            published_at: string | null;
            /**
             * @description `installed` when the app runs this release, `failed` when its schema change could not be applied and the app kept the earlier release, `pending` when the app has not got to it.
             * @enum {string}
             */
            status: "installed" | "failed" | "pending";
            /** @description Why it failed, when it did. All of a release's schema changes run in one SQLite transaction, so after a failure none of them is in effect. */
            error: string | null;
        };
        AppSecrets: {
            secrets: components["schemas"]["AppSecret"][];
        };
        AppImageToolDeclaration: {
            /** @description The task behind the tool (`tasks/<name>.ts`); agents call the tool by this name. */
            task: string;
            /** @description What the tool is for, worded so an agent can pick it. */
            description: string;
            /** @description JSON Schema of the input; null when the author gave none. */
            inputSchema: unknown;
            /** @description JSON Schema of the output; null when the author gave none. */
            outputSchema: unknown;
        };
        PaginatedResponseAppImageSummary: {
            data: components["schemas"]["AppImageSummary"][];
            hasNextPage: boolean;
            totalCount?: number;
        };
        AppImageSummary: {
            id: string;
            /** @description The image's part of the address, after `owner.handle`. Set at creation, fixed from then on. */
            slug: string;
            name: string;
            /** @description A one-line summary shown in listings (unlike `about`); empty until someone writes one. */
            description: string;
            /** @description The scope that owns the image; its handle is the first part of the address. */
            owner: components["schemas"]["AppOwner"];
            /** @description `private`: only the owner's scope sees it. `public`: listed in the catalogue, where anyone may install it. Making it public shares the image, never any app's data; every install begins empty. */
            visibility: components["schemas"]["AppImageVisibility"];
            /** @description The release served by every app of this image; null before the first publish. */
            current_release: number | null;
            /** @description When the release being served was deployed; null when nothing is served yet. */
            released_at: string | null;
            /** @description An archived image's apps keep running, but it takes no new installs and no listing shows it. */
            archived_at: string | null;
            /** @description Number of apps, in all scopes, running this image: who would be affected by archiving it. */
            install_count: number;
            created_at: string;
            updated_at: string;
        };
        /** @enum {string} */
        AppImageVisibility: "private" | "public";
        AppImage: {
            id: string;
            /** @description The image's part of the address, after `owner.handle`. Set at creation, fixed from then on. */
            slug: string;
            name: string;
            /** @description A one-line summary shown in listings (unlike `about`); empty until someone writes one. */
            description: string;
            /** @description The scope that owns the image; its handle is the first part of the address. */
            owner: components["schemas"]["AppOwner"];
            /** @description `private`: only the owner's scope sees it. `public`: listed in the catalogue, where anyone may install it. Making it public shares the image, never any app's data; every install begins empty. */
            visibility: components["schemas"]["AppImageVisibility"];
            /** @description The release served by every app of this image; null before the first publish. */
            current_release: number | null;
            /** @description When the release being served was deployed; null when nothing is served yet. */
            released_at: string | null;
            /** @description An archived image's apps keep running, but it takes no new installs and no listing shows it. */
            archived_at: string | null;
            /** @description Number of apps, in all scopes, running this image: who would be affected by archiving it. */
            install_count: number;
            created_at: string;
            updated_at: string;
            /** @description Longer text about the image, empty until written, returned exactly as stored; the reader decides whether to render it as markdown. */
            about: string;
            /** @description What an install has to provide; the install form is built from it. */
            manifest: components["schemas"]["AppImageManifest"] | null;
            /** @description The `.api-keys.json` deployed with the release: hosts the page may call and the grant for each, with secret references kept as `${NAME}`, never the values. */
            api_grant: unknown;
            /** @description Default settings written by the author, where every install starts. */
            config_defaults: unknown;
            release_count: number;
        };
        AppImageManifest: {
            /** @description Each `${VAR}` used by the release's grant, declared so that installing can ask for its value. */
            secrets: components["schemas"]["AppImageSecretDeclaration"][];
            /** @description JSON Schema of the settings document, giving the install form real fields rather than a text box. */
            settings: unknown;
            /** @description Tasks the platform runs for the app, keyed by the event that starts each one. */
            hooks: components["schemas"]["AppImageHooks"];
            /** @description Reduck scripts the app may run through its `reduck` door, written as `[owner/]host/slug`. Runs of any other script are refused; when the release declares none the list is empty and the door runs nothing. */
            scripts: string[];
        };
        AppImageSecretDeclaration: {
            name: string;
            /** @description The field's label for people; the name when the author gave none. */
            label: string;
            /** @description Where to find the value, shown under the field; empty when the author gave none. */
            description: string;
            /** @description False when the app works without this secret; the form marks the others as needed. */
            required: boolean;
            /** @description Whether the app's page may use this secret, beyond the app's own server-side tasks. */
            page: boolean;
        };
        AppImageHooks: {
            /** @description Runs a single time for the app, when its page is first opened. */
            init: string | null;
            /** @description Runs a single time for each person, when they first open the app. */
            newUser: string | null;
        };
        PaginatedResponseAppImageReleaseSummary: {
            data: components["schemas"]["AppImageReleaseSummary"][];
            hasNextPage: boolean;
            totalCount?: number;
        };
        AppImageReleaseSummary: {
            number: number;
            created_at: string;
            asset_count: number;
            /** @description True for the release currently served (the one a rollback changes). */
            current: boolean;
            /** @description When the uploaded files were verified; null when the upload was never completed. */
            published_at: string | null;
        };
        AppImageRelease: {
            number: number;
            created_at: string;
            asset_count: number;
            /** @description True for the release currently served (the one a rollback changes). */
            current: boolean;
            /** @description When the uploaded files were verified; null when the upload was never completed. */
            published_at: string | null;
            /** @description The files in this release. */
            assets: {
                name: string;
                key: string;
                size: number;
            }[];
            /** @description SHA-256 of the release's `schema.sql`. That file holds the whole schema at this release and is only run for an app without a database; apps that already have one are brought forward by `migrations`. */
            schema_sha: string | null;
            /** @description This release's migrations, in order, applied to an app when it moves to this release. */
            migrations: {
                name: string;
                sha: string;
            }[];
            manifest: components["schemas"]["AppImageManifest"];
            /** @description The tools this release lets an agent call; empty when it declares none. */
            tools: components["schemas"]["AppImageToolDeclaration"][];
            api_grant: unknown;
            config_defaults: unknown;
            /** @description Handle of the person who deployed it; null when that account no longer exists or has no handle. */
            deployed_by: string | null;
        };
        /** @description Header names and values an upload request must carry exactly as given. */
        UploadHeaders: {
            [key: string]: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listDevices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Device"][];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listRuns: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
                status?: "cancelled" | "error" | "queued" | "running" | "success";
                script_id?: string;
                host?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseRun"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The run is still in progress, or it has ended but finalization is not yet complete. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    batchDeleteRuns: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    runIds: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Ids of the runs that were removed. */
                        deletedIds: string[];
                        /** @description Ids of runs that were not removed, either because the account has no such run or because the run is still being finalized. These are reported instead of failing the request, so a partly successful batch still shows what was removed. */
                        skippedIds: string[];
                    };
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getRunTrace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description This account has no run with that id, or the run did not record a trace. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptWithVersion"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    patchScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    human_required?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptWithVersion"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listScripts: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
                host?: string;
                slug?: string;
                visibility?: "private" | "public";
                archived?: "true" | "false";
                status?: "healthy" | "degraded" | "failing" | "unknown";
                q?: string;
                sortBy?: "relevance" | "featured" | "name" | "host" | "runs" | "successRate" | "avgTime" | "lastRunAt" | "createdAt" | "updatedAt";
                order?: "asc" | "desc";
            };
            header?: never;
            path: {
                handle: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseScriptSummary"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Hostname of the site this script automates. */
                    host: string;
                    /** @description Identifier of the script within its host; unique for each owner. */
                    slug: string;
                    name?: string;
                    description: string;
                    /** @enum {string} */
                    visibility?: "private" | "public";
                    content: string;
                    /** @enum {string} */
                    language?: "typescript" | "javascript";
                    input_schema: {
                        [key: string]: unknown;
                    };
                    output_schema: {
                        [key: string]: unknown;
                    };
                    logged_in?: boolean;
                    /**
                     * @description Effect of running this version on the site: `none` means it only reads, `write` means it performs actions. The author declares this and it is not enforced, so it is a claim rather than a guarantee.
                     * @enum {string}
                     */
                    side_effects: "none" | "write";
                    human_required?: boolean;
                    /** @description Create the initial version as an unpromoted draft, so the new script has no current version. */
                    draft?: boolean;
                };
            };
        };
        responses: {
            /** @description The resource was created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        host: string;
                        slug: string;
                        /** @description The script's current version; null when the initial version was made a draft at creation. */
                        current_version_id: string | null;
                        /** @description The newly created version. The script does not reference it for as long as it remains a draft. */
                        created_version_id: string;
                    };
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description You lack permission to create scripts for that owner, or your plan has no private-script allowance left. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A script with this host and slug already exists for that owner, or the request combined a draft initial version with `visibility: "public"`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAllScripts: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
                host?: string;
                q?: string;
                visibility?: "private" | "public";
                archived?: "true" | "false";
                catalogueOnly?: "true" | "false";
                sortBy?: "relevance" | "featured" | "name" | "host" | "runs" | "successRate" | "avgTime" | "lastRunAt" | "createdAt" | "updatedAt";
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseScriptSummary"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    publishScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptWithVersion"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The script must first be restored from the archive, or none of its versions is promoted yet and one needs promoting. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    unpublishScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptWithVersion"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description You lack permission to update this script, or making it private would exceed the private-script limit of your plan. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    archiveScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptWithVersion"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    restoreScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptWithVersion"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description You lack permission to update this script, or restoring it would exceed the private-script limit of your plan. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listScriptVersions: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
                draft?: "true" | "false";
            };
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseScriptVersionSummary"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createDraftScriptVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content?: string;
                    /** @enum {string} */
                    language?: "typescript" | "javascript";
                    /**
                     * Format: uuid
                     * @description The version this draft builds on. It has to be a version of this same script.
                     */
                    parent_version_id?: string;
                    note: string;
                    input_schema?: {
                        [key: string]: unknown;
                    };
                    output_schema?: {
                        [key: string]: unknown;
                    };
                    logged_in?: boolean;
                    /**
                     * @description Effect of running this version on the site: `none` means it only reads, `write` means it performs actions. The author declares this and it is not enforced, so it is a claim rather than a guarantee.
                     * @enum {string}
                     */
                    side_effects?: "none" | "write";
                };
            };
        };
        responses: {
            /** @description The resource was created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        script_id: string;
                        version_number: number;
                        parent_version_id: string | null;
                        language: string;
                        logged_in: boolean;
                        side_effects: components["schemas"]["ScriptSideEffects"];
                        draft: boolean;
                        /** @description Reason this version was created. Not included for official scripts unless you are a member of the owning project, and never present on the version embedded in a script listing. */
                        note?: string | null;
                        /** @description The account that saved this version. Not the same as the script's `author` field, which holds the OWNER, either a user or a project; since project members edit a project's script individually, this field names the member who did. Null if that account has been deleted since. */
                        created_by: {
                            handle: string;
                            name: string;
                        } | null;
                        created_at: string;
                        execution_count: number;
                        last_run_at: string | null;
                        success_rate: number | null;
                        avg_time_ms: number | null;
                        /** @description Source code of the version. Not included for official scripts unless you are a member of the owning project. */
                        content?: string;
                        input_schema: {
                            [key: string]: unknown;
                        };
                        output_schema: {
                            [key: string]: unknown;
                        };
                        diff: components["schemas"]["VersionDiff"];
                    };
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Either the code and contract match the current version exactly, or the script has been archived. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getScriptVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptVersion"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteDraftScriptVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The version is not a draft anymore, or the script has been archived. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    patchDraftScriptVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content?: string;
                    /** @enum {string} */
                    language?: "typescript" | "javascript";
                    input_schema?: {
                        [key: string]: unknown;
                    };
                    output_schema?: {
                        [key: string]: unknown;
                    };
                    logged_in?: boolean;
                    /**
                     * @description Effect of running this version on the site: `none` means it only reads, `write` means it performs actions. The author declares this and it is not enforced, so it is a claim rather than a guarantee.
                     * @enum {string}
                     */
                    side_effects?: "none" | "write";
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        script_id: string;
                        version_number: number;
                        parent_version_id: string | null;
                        language: string;
                        logged_in: boolean;
                        side_effects: components["schemas"]["ScriptSideEffects"];
                        draft: boolean;
                        /** @description Reason this version was created. Not included for official scripts unless you are a member of the owning project, and never present on the version embedded in a script listing. */
                        note?: string | null;
                        /** @description The account that saved this version. Not the same as the script's `author` field, which holds the OWNER, either a user or a project; since project members edit a project's script individually, this field names the member who did. Null if that account has been deleted since. */
                        created_by: {
                            handle: string;
                            name: string;
                        } | null;
                        created_at: string;
                        execution_count: number;
                        last_run_at: string | null;
                        success_rate: number | null;
                        avg_time_ms: number | null;
                        /** @description Source code of the version. Not included for official scripts unless you are a member of the owning project. */
                        content?: string;
                        input_schema: {
                            [key: string]: unknown;
                        };
                        output_schema: {
                            [key: string]: unknown;
                        };
                        diff: components["schemas"]["VersionDiff"];
                    };
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The version is not a draft anymore, or the script has been archived. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    promoteScriptVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
                versionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScriptVersion"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The script has been archived. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listScriptTransferTargets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        targets: components["schemas"]["TransferTarget"][];
                    };
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The script is archived and therefore cannot be transferred anywhere. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    transferScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Owner under which a resource is addressed: a personal scope is written "@username", a project as a plain slug. */
                    target: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        handle: string;
                        host: string;
                        slug: string;
                    };
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description You lack permission to move the script out of its current scope, or you cannot create scripts in the target (the handle is unknown, it is another user's personal scope, or it is a project in which creating scripts is not permitted for you), or moving a private script into your personal scope would exceed your plan's allowance. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Either a script with the same host and slug already exists in the target scope, or the script has been archived. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getHostReadme: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostReadme"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    setHostReadme: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    content: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostReadme"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteHostReadme: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                host: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        email: string;
                        /** @description Handle used to address this account; null until a username has been chosen. */
                        handle: string | null;
                        /** @description Role at the account level: "admin" marks Reduck staff, "user" marks a regular account, and null means neither role was ever assigned. */
                        role: string | null;
                        /** @description Projects the account is a member of, with the account's role in each. */
                        projects: {
                            handle: string;
                            name: string;
                            role: string;
                        }[];
                        /** @description Experimental features enabled for this account, either granted to the account itself or to a project it belongs to. */
                        experimental_features: "flock_apps"[];
                        /** @description Usage and quotas for the current period; null if no period is active. */
                        usage: components["schemas"]["ManagedUsage"] | null;
                    };
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listConnectors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connector"][];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                host: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectorWithCookies"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    putConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                host: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    cookies: {
                        name: string;
                        value: string;
                        domain: string;
                        path: string;
                        expires: number;
                        httpOnly: boolean;
                        secure: boolean;
                        /** @enum {string} */
                        sameSite?: "Strict" | "Lax" | "None";
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connector"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteConnector: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                host: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAllApps: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseAppSummary"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listApps: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
            };
            header?: never;
            path: {
                handle: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseAppSummary"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The handle is unknown, or it is a scope you are not part of. No app is public, so both cases get this one answer on purpose. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Which image to install: its owner's handle and its slug. */
                    image: {
                        /** @description Whose scope the resource lives in: "@username" for a person, or the project's slug (no @) for a project. */
                        handle: string;
                        /** @description Names the image inside its owner's scope. Set when the image is made; it never changes afterwards. */
                        slug: string;
                    };
                    /** @description A label for people. Apps are found by id, so the name can change at will and need not be unique. */
                    name?: string;
                    /** @description Initial settings, laid over the defaults the image's author wrote. */
                    config?: {
                        [key: string]: unknown;
                    };
                    /** @description Secret values for the names the image's grant uses. They are sealed when received and cannot be read back; the page may not use any of them until access is opened. */
                    secrets?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description The resource was created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The image is archived, or no release of it has been published yet. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No app with that id under that handle, or a scope you are not part of. An app answers only under its owner's handle. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    uninstallApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No app with that id under that handle, or a scope you are not part of. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A label for people. Apps are found by id, so the name can change at will and need not be unique. */
                    name: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAppUpdates: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
            };
            header?: never;
            path: {
                handle: string;
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseAppUpdate"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No app with that id under that handle, or a scope you are not part of. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAppSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppSecrets"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateAppSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Maps secret names to changes: `null` deletes that secret, a string sets its value, and an object sets its value, whether the page may use it, or both. Secrets not named keep what they have. An object with only page access changes an existing secret without sending its value again, and is ignored for a name that has no secret yet; a value without page access keeps the secret's current page access. New secrets start closed to the page unless opened. Either every change in the request is applied or none is. */
                    secrets: {
                        [key: string]: null | string | {
                            value?: string;
                            pageUsable?: boolean;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppSecrets"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The server has no sealing key configured, so a secret written now could never be used; nothing was stored. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAppTools: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tools: components["schemas"]["AppImageToolDeclaration"][];
                    };
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No app with that id under that handle, or a scope you are not part of. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAllAppImages: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
                catalogueOnly?: "true" | "false";
                archived?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseAppImageSummary"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAppImages: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
                archived?: "true" | "false";
            };
            header?: never;
            path: {
                handle: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseAppImageSummary"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAppImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Names the image inside its owner's scope. Set when the image is made; it never changes afterwards. */
                    slug: string;
                    /** @description A label for people. Images are found by slug, so the name can change at will. */
                    name: string;
                    /** @description A one-line summary shown in listings (unlike `about`). An empty string removes it. */
                    description?: string;
                    /** @description Longer text about the image, left out of listings. An empty string removes it. */
                    about?: string;
                };
            };
        };
        responses: {
            /** @description The resource was created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppImage"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description This owner already has an image with that slug. Slugs are addresses and are never reused or changed, so choose a different one. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAppImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppImage"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No image with that slug under that handle, or a private one in a scope you are not part of. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateAppImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A label for people. Images are found by slug, so the name can change at will. */
                    name?: string;
                    /**
                     * @description `private`: only the owner's scope sees it. `public`: listed in the catalogue, and any signed-in account may install it. Making an image public shares the image itself, never any app's data.
                     * @enum {string}
                     */
                    visibility?: "private" | "public";
                    /** @description A one-line summary shown in listings (unlike `about`). An empty string removes it. */
                    description?: string;
                    /** @description Longer text about the image, left out of listings. An empty string removes it. */
                    about?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppImage"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    restoreAppImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppImage"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    archiveAppImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppImage"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAppImageReleases: {
        parameters: {
            query?: {
                page?: number;
                pageSize?: number;
            };
            header?: never;
            path: {
                handle: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponseAppImageReleaseSummary"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    startAppImageRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    files: {
                        /** @description The path the file is served at, such as `app.js` or `migrations/002-add-tags.sql`. */
                        name: string;
                        size: number;
                        sha256: string;
                    }[];
                    /** @description The app's `.api-keys.json` as written: the hosts its page may call and what is sent along to each. */
                    grant?: {
                        [key: string]: unknown;
                    };
                    /** @description The app's `config.json` as written: default settings. */
                    config?: {
                        [key: string]: unknown;
                    };
                    /** @description The install contract from the app's `manifest.json`. */
                    manifest?: {
                        secrets?: {
                            [key: string]: {
                                label?: string;
                                description?: string;
                                required?: boolean;
                                page?: boolean;
                            };
                        };
                        /** @description A JSON Schema describing the app's settings; the install form is drawn from it. */
                        settings?: {
                            [key: string]: unknown;
                        };
                        /** @description Tasks run for the app by the platform, keyed by the event that starts each one. */
                        hooks?: {
                            /** @description Runs a single time for each app, when its page is first opened. */
                            init?: string;
                            /** @description Runs a single time for each person, when they first open the app. */
                            newUser?: string;
                        };
                        /** @description Reduck scripts the app is allowed to run, written as `[owner/]host/slug`. */
                        scripts?: string[];
                    };
                    /** @description The tools from the manifest, resolved: what this release lets an agent call. */
                    tools?: {
                        /** @description The task behind the tool (`tasks/<name>.ts`); the tool is called by this name too. */
                        task: string;
                        /** @description What the tool is for, worded so an agent can pick it. */
                        description: string;
                        /** @description JSON Schema of the task's input. */
                        inputSchema?: {
                            [key: string]: unknown;
                        };
                        /** @description JSON Schema of the task's output. */
                        outputSchema?: {
                            [key: string]: unknown;
                        };
                    }[];
                    migrations?: {
                        name: string;
                        sha: string;
                    }[];
                    /** @description SHA-256 of the release's `schema.sql`, when it includes one. */
                    schema_sha?: string;
                };
            };
        };
        responses: {
            /** @description The resource was created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        number: number;
                        uploads: {
                            name: string;
                            url: string;
                            headers: components["schemas"]["UploadHeaders"];
                        }[];
                        expires_in: number;
                    };
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The image is archived and accepts no new releases. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAppImageRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                slug: string;
                releaseNumber: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppImageRelease"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No image with that slug under that handle, or it has no release with that number. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    publishAppImageRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                slug: string;
                releaseNumber: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppImage"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No image with that slug under that handle, or it has no release with that number. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The image is archived, or not every file of the release has been uploaded. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rollbackAppImage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                handle: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Number of the release to serve (what is displayed as `v3`), not an id. */
                    release: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppImage"];
                };
            };
            /** @description The request failed validation */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or refused credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No image with that slug under that handle, or it has no release with that number. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description That release's upload was never completed, so it has no files to serve. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        version: string;
                    };
                };
            };
        };
    };
    getPing: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        message: "pong";
                    };
                };
            };
        };
    };
    runScript: {
        parameters: {
            query?: never;
            header?: {
                /** @description Which door the run came through, recorded as the run's `source`. Ours: the CLI sends `cli`, the local agent tool `mcp`; absent means `rest`. */
                "X-Reduck-Source"?: "cli" | "mcp" | "rest";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RunRequest"];
                "multipart/form-data": {
                    /** @description The run request as JSON (`RunRequest`); its `files` may still name files by `relativePath`, but inline files are not allowed in this form. */
                    spec: string;
                } & {
                    [key: string]: string;
                };
            };
        };
        responses: {
            /** @description Everything finished within `waitForSeconds`. Published: for one `script`, the script's result and run id; for `scripts`, an array with one envelope per script, in the order given (failed scripts included: the request as a whole succeeded). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"] | components["schemas"]["RunEnvelope"][];
                };
            };
            /** @description Still running when `waitForSeconds` ran out: not a failure. Published: for `scripts`, a batch to poll with `GET /batches/{batchId}`. Our inference (the service does not publish the single-script case): for one `script`, one in-flight envelope `{ status: "queued" | "running", runId, retryAfterMs }`, to wait on with `GET /api/runs/{runId}`. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunBatch"] | components["schemas"]["RunEnvelope"];
                };
            };
            /** @description The request is malformed (more than 20 scripts, `waitForSeconds` out of 1-110, `region` or `country` with an own browser, `"extension"` with no or several paired browsers: the message lists their ids), or its arguments or files do not fit the script's contract (an unknown or missing file input, a bad `relativePath`, a named file on a cloud browser). The run is recorded when the script was found and the request itself was sound. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunErrorResponse"];
                };
            };
            /** @description Missing or refused credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunErrorResponse"];
                };
            };
            /** @description The caller may not run this script. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunErrorResponse"];
                };
            };
            /** @description No such script visible to the caller. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunErrorResponse"];
                };
            };
            /** @description Payload Too Large: a JSON body over 100 KB, or a file part over 50 MB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunErrorResponse"];
                };
            };
            /** @description The run started but failed: the browser could not read a named file, file access is off, a cloud browser has no connector for a signed-in script's host, or the script threw or timed out. The message says which, `errorType` says what kind; the run is recorded. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunErrorResponse"];
                };
            };
        };
    };
    getBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `batchId` of a 202 answer. */
                batchId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch as it stands. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunBatch"];
                };
            };
            /** @description Missing or refused credential. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunErrorResponse"];
                };
            };
            /** @description The credential may not read runs. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunErrorResponse"];
                };
            };
            /** @description No such batch on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunErrorResponse"];
                };
            };
        };
    };
}
