/**
 * Every tool the agent tool offers: its name (the hosted server's, so an agent's habits carry
 * over), what it does and changes, its input and output schemas, its MCP annotations, a usage
 * line for a call whose arguments do not fit, and its handler.
 *
 * Annotations: `readOnlyHint` for the tools that change nothing; `destructiveHint` for those that
 * remove or replace what was there (archive, delete, a patch or README that overwrites) and for
 * run_script (scripts act on real sites); `idempotentHint` where calling twice changes nothing
 * more; `openWorldHint` only for run_script, the one tool that reaches beyond the account.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z as Zod } from "zod";
import type { ToolContext, ToolResult } from "./shared/answers.js";
import {
  archiveTool,
  createScriptTool,
  deleteHostReadmeTool,
  listDevicesTool,
  readHostReadmeTool,
  setHostReadmeTool,
  updateScriptMetadataTool,
} from "./tools/create-script.js";
import type { Schemas } from "./shared/tool-schemas.js";
import { listRunsTool, listScriptsTool, readScriptTool, whoamiTool } from "./tools/read-script.js";
import { readRunResultsTool, runScriptTool } from "./tools/run-script.js";
import { readRunTraceTool } from "./tools/read-run-trace.js";
import {
  createDraftScriptVersionTool,
  deleteDraftScriptVersionTool,
  listScriptVersionsTool,
  patchDraftScriptVersionTool,
  promoteScriptVersionTool,
} from "./tools/list-script-versions.js";
import type { CallExtra } from "./shared/waiting.js";

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: Zod.AnyZodObject;
  output?: Zod.AnyZodObject;
  annotations: ToolAnnotations;
  /** A call that fits, shown after a call whose arguments do not. */
  usage: string;
  run(tc: ToolContext, input: any, extra: CallExtra): Promise<ToolResult>;
}

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Adds to the catalogue: nothing is lost, and a second call adds again (or is refused). */
const ADD: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Replaces or removes what was there; the same call again changes nothing more. */
const REPLACE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

const ADDRESS = 'address: "@me/example.com/get_title"';

/**
 * @param folder the service folder named in run_script's description
 * @param holdSeconds how long a call waits on a run before answering with its handle
 */
export function toolList(s: Schemas, folder: string, holdSeconds: number): ToolSpec[] {
  return [
    {
      name: "run_script",
      title: "Run a Reduck script",
      description: `Runs a catalogue script (or up to 20) in a browser and returns its result as JSON: { status, runId, result }, or for several scripts { batchId, status, totalSteps, runs }. Scripts act on real sites: they may send, post or delete. Name the script by its address from list_scripts (script: { address: "reduck/mail.google.com/send_email" }) or by host, slug and handle; its arguments go in script.args; script.version_id runs that version (a draft, to try it before promote_script_version). Files are named, never sent by you: put the file in ${folder} and pass files: { <input>: { relativePath: "<name>" } } (sub-folders allowed). Use read_script first to see the inputs and which are files. A run still going after ${holdSeconds} s (or waitForSeconds) answers with its handle ({ status: "running", batchId or runId, next }): call read_run_results with it for the outcome, never run_script again. A failed run's runId goes to read_run_trace.`,
      input: s.runScriptInput,
      output: s.runScriptOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      usage: 'run_script { script: { address: "reduck/mail.google.com/send_email", args: { to: "me@example.com", subject: "Hi" } } }',
      run: runScriptTool,
    },
    {
      name: "read_run_results",
      title: "Read a run's results",
      description: `The outcome of a run run_script handed back still going: { runId } for that one run (even one of a batch), { batchId } for every script of the batch. Changes nothing. Waits up to ${holdSeconds} s; if the run is still going then, answers with the handle again: call again.`,
      input: s.readRunResultsInput,
      output: s.runScriptOutput,
      annotations: READ,
      usage: 'read_run_results { runId: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9" }',
      run: readRunResultsTool,
    },
    {
      name: "read_run_trace",
      title: "Read a run's trace",
      description:
        "What a run did, step by step (action, duration, ok or failed, error), as text, and the screenshots it recorded (the page where it failed, or where it ended) as images. Use it on a failed run's runId to see why it failed before changing the script. Changes nothing. At most 3 screenshots per answer; one left out is named with its URL.",
      input: s.readRunTraceInput,
      output: s.readRunTraceOutput,
      annotations: READ,
      usage: 'read_run_trace { runId: "86b0479f-a68f-4fcd-92d1-b68f485ee3d9" }',
      run: (tc, input, extra) => readRunTraceTool(tc, input, extra.signal),
    },
    {
      name: "list_scripts",
      title: "Find scripts",
      description:
        'Lists scripts: your own, your projects\' and the official catalogue (handle "reduck"), filtered by owner, site or words, a page at a time (the answer says when there is more). Each comes with the address to give read_script and run_script. Changes nothing.',
      input: s.listScriptsInput,
      output: s.listScriptsOutput,
      annotations: READ,
      usage: 'list_scripts { host: "mail.google.com", q: "send", page: 0, pageSize: 20 }',
      run: listScriptsTool,
    },
    {
      name: "read_script",
      title: "Read a script's contract",
      description:
        'Returns what a script takes (input schema, and which inputs are files), what it returns, whether it needs a login and whether it acts on the site; with code: true, its code. Name it by address ("reduck/mail.google.com/send_email") or by host, slug and handle; version_id reads that version. Changes nothing.',
      input: s.readScriptInput,
      output: s.readScriptOutput,
      annotations: READ,
      usage: 'read_script { address: "reduck/mail.google.com/send_email" }',
      run: readScriptTool,
    },
    {
      name: "list_runs",
      title: "List runs",
      description:
        "Your runs, newest first, a page at a time, with their status (completed, failed, queued, running, cancelled: the words run_script uses), the version run and errors. Changes nothing.",
      input: s.listRunsInput,
      output: s.listRunsOutput,
      annotations: READ,
      usage: 'list_runs { status: "failed", page: 0, pageSize: 20 }',
      run: listRunsTool,
    },
    {
      name: "whoami",
      title: "Who am I",
      description: "The account in use, its projects and this period's usage, and the folder files are read from. Changes nothing.",
      input: s.noInput,
      output: s.whoamiOutput,
      annotations: READ,
      usage: "whoami {}",
      run: (tc) => whoamiTool(tc),
    },
    {
      name: "list_devices",
      title: "List paired browsers",
      description:
        'Your paired browsers (devices) with their ids, whether each may read named files, and which one run_script uses by default. Give an id to run_script as deviceId to run on that browser. "reachable" means it can be woken up, not that it is running. Changes nothing.',
      input: s.noInput,
      output: s.listDevicesOutput,
      annotations: READ,
      usage: "list_devices {}",
      run: (tc) => listDevicesTool(tc),
    },
    {
      name: "create_script",
      title: "Create a script",
      description:
        "Creates a new script under your own handle (or a project's): its code (content, the body of an async function with page, args, files and builtins) and the JSON Schemas of its input and output. Adds to the catalogue; its first version is current unless draft: true. The address it answers goes to run_script. To change an existing script, add a draft version instead.",
      input: s.createScriptInput,
      output: s.createScriptOutput,
      annotations: ADD,
      usage:
        'create_script { host: "example.com", slug: "get_title", description: "Reads the page title", content: "await page.goto(\\"https://example.com/\\"); return { title: await page.title() };", inputSchema: { type: "object", properties: {} }, outputSchema: { type: "object" }, sideEffects: "none" }',
      run: createScriptTool,
    },
    {
      name: "list_script_versions",
      title: "List a script's versions",
      description:
        "A script's versions, newest first, a page at a time: each one's id and number, whether it is a draft and whether it is the current one (what runs use). Changes nothing.",
      input: s.listScriptVersionsInput,
      output: s.listScriptVersionsOutput,
      annotations: READ,
      usage: `list_script_versions { ${ADDRESS} }`,
      run: listScriptVersionsTool,
    },
    {
      name: "create_draft_script_version",
      title: "Add a draft version",
      description:
        "Adds a draft version to a script: a copy of the current version (or parent_version_id) with the code and contract you give. Runs keep using the current version until the draft is promoted; try the draft with run_script and script.version_id. Adds a version; changes nothing else.",
      input: s.createDraftScriptVersionInput,
      output: s.versionOutput,
      annotations: ADD,
      usage: `create_draft_script_version { ${ADDRESS}, note: "Wait for the heading", content: "..." }`,
      run: createDraftScriptVersionTool,
    },
    {
      name: "patch_draft_script_version",
      title: "Change a draft version",
      description:
        "Changes a draft version in place: the fields you give replace the draft's (a promoted version never changes). Name the version by version_id or by its number (version).",
      input: s.patchDraftScriptVersionInput,
      output: s.versionOutput,
      annotations: REPLACE,
      usage: `patch_draft_script_version { ${ADDRESS}, version: 2, content: "..." }`,
      run: patchDraftScriptVersionTool,
    },
    {
      name: "promote_script_version",
      title: "Promote a version",
      description:
        "Makes a version the current one: what runs of the script use from now on (a draft stops being a draft). Promoting an earlier version rolls back. Promoting the current version again changes nothing. Name the version by version_id or by its number (version).",
      input: s.versionTarget,
      output: s.versionOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      usage: `promote_script_version { ${ADDRESS}, version_id: "00000000-0000-4000-8004-000000000002" }`,
      run: promoteScriptVersionTool,
    },
    {
      name: "delete_draft_script_version",
      title: "Delete a draft version",
      description: "Deletes a draft version for good (a promoted version cannot be deleted). Name it by version_id or by its number (version).",
      input: s.versionTarget,
      output: s.deletedOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      usage: `delete_draft_script_version { ${ADDRESS}, version: 3 }`,
      run: deleteDraftScriptVersionTool,
    },
    {
      name: "update_script_metadata",
      title: "Change a script's name, description or visibility",
      description:
        'Changes a script\'s name, description, visibility ("public": anyone may read and run it; "private") or humanRequired; the values given replace the old ones. The code and contract change only through versions.',
      input: s.updateScriptMetadataInput,
      output: s.scriptState,
      annotations: REPLACE,
      usage: `update_script_metadata { ${ADDRESS}, description: "Reads the page title" }`,
      run: updateScriptMetadataTool,
    },
    {
      name: "archive_script",
      title: "Archive a script",
      description:
        "Archives a script: it leaves the listings and can no longer be run, until unarchive_script restores it (its address stays taken). Archiving an archived script changes nothing.",
      input: s.scriptTargetInput,
      output: s.scriptState,
      annotations: REPLACE,
      usage: `archive_script { ${ADDRESS} }`,
      run: (tc, input) => archiveTool(tc, input, true),
    },
    {
      name: "unarchive_script",
      title: "Restore an archived script",
      description: "Restores an archived script: it is listed and can be run again. Restoring a script that is not archived changes nothing.",
      input: s.scriptTargetInput,
      output: s.scriptState,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      usage: `unarchive_script { ${ADDRESS} }`,
      run: (tc, input) => archiveTool(tc, input, false),
    },
    {
      name: "read_host_readme",
      title: "Read a host's README",
      description:
        "The notes an owner keeps for all their scripts on one site (rate limits, login quirks, the order to run things in). Omit handle for your own. Changes nothing.",
      input: s.readHostReadmeInput,
      output: s.readmeOutput,
      annotations: READ,
      usage: 'read_host_readme { host: "example.com" }',
      run: readHostReadmeTool,
    },
    {
      name: "set_host_readme",
      title: "Write a host's README",
      description:
        "Writes the notes for all of an owner's scripts on one site (Markdown, up to 20,000 characters), replacing the README that was there. Needs the right to edit that owner's scripts.",
      input: s.setHostReadmeInput,
      output: s.readmeOutput,
      annotations: REPLACE,
      usage: 'set_host_readme { host: "example.com", content: "# example.com\\nSign in first." }',
      run: setHostReadmeTool,
    },
    {
      name: "delete_host_readme",
      title: "Delete a host's README",
      description: "Deletes the README of one site for an owner, for good. Deleting one that is not there changes nothing.",
      input: s.readHostReadmeInput,
      output: s.deletedOutput,
      annotations: REPLACE,
      usage: 'delete_host_readme { host: "example.com" }',
      run: deleteHostReadmeTool,
    },
  ];
}
