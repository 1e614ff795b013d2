import { archiveScript } from "../../../generated/operations.js";
import { ScriptStateCommand } from "../../script-state-command.js";

export default class ScriptsArchive extends ScriptStateCommand {
  static override summary = "Archive a script";
  static override description = "An archived script drops out of `reduck scripts list` (it stays in its owner's listing), takes no new versions and keeps its host and slug reserved; a public archived script can still be read.";

  static override examples = [
    { description: "Archive a script you no longer use", command: "<%= config.bin %> scripts archive example.com/get_title" },
    { description: "The updated record", command: "<%= config.bin %> scripts archive example.com/get_title --json" },
  ];

  protected change = archiveScript;
  protected doing = "archiving";
  protected done = (address: string) => `${address} is archived. Restore it with \`reduck scripts restore ${address}\`.`;
}
