/**
 * archive_script: takes a script out of the listings and out of runs (setArchived, shared with
 * unarchive_script).
 */
import { setArchived } from "../common/script-state.js";
import { ADDRESS, REPLACE, type Tool } from "../common/tool.js";

export const archiveScriptTool: Tool = {
  name: "archive_script",
  spec: ({ s }) => ({
    title: "Archive a script",
    description:
      "Archives a script: it leaves the listings and can no longer be run, until unarchive_script restores it (its address stays taken). Archiving an archived script changes nothing.",
    input: s.scriptTargetInput,
    output: s.scriptState,
    annotations: REPLACE,
    usage: `archive_script { ${ADDRESS} }`,
  }),
  run: (tc, input) => setArchived(tc, input, true),
};
