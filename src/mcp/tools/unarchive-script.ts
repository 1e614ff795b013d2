/**
 * unarchive_script: restores an archived script (setArchived, shared with archive_script).
 */
import { setArchived } from "../common/script-state.js";
import { ADDRESS, type Tool } from "../common/tool.js";

export const unarchiveScriptTool: Tool = {
  name: "unarchive_script",
  spec: ({ s }) => ({
    title: "Restore an archived script",
    description: "Restores an archived script: it is listed and can be run again. Restoring a script that is not archived changes nothing.",
    input: s.scriptTargetInput,
    output: s.scriptState,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    usage: `unarchive_script { ${ADDRESS} }`,
  }),
  run: (tc, input) => setArchived(tc, input, false),
};
