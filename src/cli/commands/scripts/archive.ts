import { archiveScript } from "../../../generated/operations.js";
import { yesFlag } from "../../shell/confirm.js";
import { ScriptStateCommand } from "../../scripts/script-state-command.js";

export default class ScriptsArchive extends ScriptStateCommand {
  static override summary = "Archive a script";
  static override description =
    "An archived script drops out of `reduck scripts list` (it stays in its owner's listing), takes no new versions and keeps its host and slug reserved; a public archived script can still be read. On a terminal it asks first; --yes skips the question, and is needed where there is no terminal.";

  static override examples = [
    { description: "Archive a script you no longer use (it asks first)", command: "<%= config.bin %> scripts archive example.com/get_title" },
    { description: "Without asking, printing the updated record", command: "<%= config.bin %> scripts archive example.com/get_title --yes --json" },
  ];

  static override flags = { ...yesFlag };

  protected change = archiveScript;
  protected doing = "archiving";
  protected override question = (address: string) => `Archive ${address}? Runs of it will fail until it is restored.`;
  protected done = (address: string) => `${address} is archived. Restore it with \`reduck scripts restore ${address}\`.`;
}
