import { unpublishScript } from "../../../generated/operations.js";
import { ScriptStateCommand } from "../../scripts/script-state-command.js";

export default class ScriptsUnpublish extends ScriptStateCommand {
  static override summary = "Make a script private again";
  static override description = "Works on archived scripts too.";

  static override examples = [
    { description: "Make one of your scripts private", command: "<%= config.bin %> scripts unpublish example.com/get_title" },
    { description: "The updated record", command: "<%= config.bin %> scripts unpublish example.com/get_title --json" },
  ];

  protected change = unpublishScript;
  protected doing = "unpublishing";
  protected done = (address: string) => `${address} is now private: only you (or the project's members) can read and run it.`;
}
