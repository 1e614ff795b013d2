/**
 * Help as oclif writes it, with one change: every example command carries the `$` prompt.
 * oclif adds it only to lines that start with the CLI's own name, which leaves out
 * `REDUCK_API_URL=... reduck logout` and `claude mcp add reduck -- npx -y reduck-client mcp`.
 */
import { CommandHelp, Help, type Command } from "@oclif/core";

type Example = Command.Example;

class ReduckCommandHelp extends CommandHelp {
  protected override examples(examples: Example[] | string | undefined): string | undefined {
    if (!examples) return super.examples(examples);
    const bin = this.config.bin;
    const prompted = (command: string) => {
      const start = command.trimStart();
      return start.startsWith("$") || start.startsWith("<%= config.bin %>") || start.startsWith(`${bin} `) ? command : `$ ${command}`;
    };
    const list = Array.isArray(examples) ? examples : [examples];
    // A one-line string is a command; longer strings mix descriptions and commands: left alone.
    return super.examples(list.map((e) => (typeof e === "string" ? (e.includes("\n") ? e : prompted(e)) : { ...e, command: prompted(e.command) })));
  }
}

/**
 * Early-access commands (`reduck flock ...`) are hidden, as the official CLI hides them, unless
 * REDUCK_EXPERIMENTAL=1: then they are listed like any other. (Hidden is decided here rather than
 * in each command, since oclif.manifest.json is written at build time.)
 */
export class ReduckHelp extends Help {
  protected override CommandHelpClass = ReduckCommandHelp;

  constructor(config: ConstructorParameters<typeof Help>[0], options?: ConstructorParameters<typeof Help>[1]) {
    super(config, options);
    if (process.env.REDUCK_EXPERIMENTAL === "1") {
      for (const command of config.commands) if (isExperimental(command.id)) command.hidden = false;
      for (const topic of config.topics) if (isExperimental(topic.name)) topic.hidden = false;
    }
  }
}

function isExperimental(id: string): boolean {
  return id === "flock" || id.startsWith("flock:");
}
