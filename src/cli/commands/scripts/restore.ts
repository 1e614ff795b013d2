import { restoreScript } from "../../../generated/operations.js";
import { ScriptStateCommand } from "../../scripts/script-state-command.js";

export default class ScriptsRestore extends ScriptStateCommand {
  static override summary = "Bring an archived script back";
  static override description = "Restoring a script that is not archived changes nothing.";

  static override examples = [
    { description: "Restore an archived script", command: "<%= config.bin %> scripts restore example.com/get_title" },
    { description: "The updated record", command: "<%= config.bin %> scripts restore example.com/get_title --json" },
  ];

  protected change = restoreScript;
  protected doing = "restoring";
  protected done = (address: string) => `${address} is active again.`;
}
