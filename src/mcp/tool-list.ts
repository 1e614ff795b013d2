/**
 * Every tool the agent tool offers, in the order clients list them: one file each in tools/,
 * named for the tool (tools/read-run-trace.ts is read_run_trace). Adding a tool is a file there
 * and a line here.
 */
import { archiveScriptTool } from "./tools/archive-script.js";
import { createDraftScriptVersionTool } from "./tools/create-draft-script-version.js";
import { createScriptTool } from "./tools/create-script.js";
import { deleteDraftScriptVersionTool } from "./tools/delete-draft-script-version.js";
import { deleteHostReadmeTool } from "./tools/delete-host-readme.js";
import { listDevicesTool } from "./tools/list-devices.js";
import { listRunsTool } from "./tools/list-runs.js";
import { listScriptVersionsTool } from "./tools/list-script-versions.js";
import { listScriptsTool } from "./tools/list-scripts.js";
import { patchDraftScriptVersionTool } from "./tools/patch-draft-script-version.js";
import { promoteScriptVersionTool } from "./tools/promote-script-version.js";
import { readHostReadmeTool } from "./tools/read-host-readme.js";
import { readRunResultsTool } from "./tools/read-run-results.js";
import { readRunTraceTool } from "./tools/read-run-trace.js";
import { readScriptTool } from "./tools/read-script.js";
import { runScriptTool } from "./tools/run-script.js";
import { setHostReadmeTool } from "./tools/set-host-readme.js";
import { unarchiveScriptTool } from "./tools/unarchive-script.js";
import { updateScriptMetadataTool } from "./tools/update-script-metadata.js";
import { whoamiTool } from "./tools/whoami.js";
import type { Tool } from "./common/tool.js";

export const TOOLS: readonly Tool[] = [
  runScriptTool,
  readRunResultsTool,
  readRunTraceTool,
  listScriptsTool,
  readScriptTool,
  listRunsTool,
  whoamiTool,
  listDevicesTool,
  createScriptTool,
  listScriptVersionsTool,
  createDraftScriptVersionTool,
  patchDraftScriptVersionTool,
  promoteScriptVersionTool,
  deleteDraftScriptVersionTool,
  updateScriptMetadataTool,
  archiveScriptTool,
  unarchiveScriptTool,
  readHostReadmeTool,
  setHostReadmeTool,
  deleteHostReadmeTool,
];
