import { publishScript } from "../../../generated/operations.js";
import { ScriptStateCommand } from "../../scripts/script-state-command.js";

export default class ScriptsPublish extends ScriptStateCommand {
  static override summary = "Make a script public: anyone can read and run it";
  static override description = "It needs a promoted (current) version, and cannot be archived.";

  static override examples = [
    { description: "Publish one of your scripts", command: "<%= config.bin %> scripts publish example.com/get_title" },
    { description: "The updated record", command: "<%= config.bin %> scripts publish example.com/get_title --json" },
  ];

  protected change = publishScript;
  protected doing = "publishing";
  protected done = (address: string) => `${address} is now public.`;
}
