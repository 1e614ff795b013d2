import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { createReduckClient } from "../../client.js";
import { getMe } from "../../generated/operations.js";
import { BaseCommand } from "../base.js";
import { storeKey } from "../config.js";
import { CliError, fromReduckError, usageError } from "../errors.js";
import { ExitCode } from "../exit-codes.js";

export default class Login extends BaseCommand<typeof Login> {
  static override summary = "Store an API key for the CLI";
  static override description = `Reads the key from standard input, or asks for it without echoing it, checks it with the API, and stores it in ~/.config/reduck/config.json (or $REDUCK_CONFIG_DIR), readable only by you. The key is never taken from the command line, where other users could see it in \`ps\`. Create keys at https://reduck.ai/api-keys.`;
  static override examples = [
    { description: "Type the key at a hidden prompt", command: "<%= config.bin %> login" },
    { description: "Pipe it from a password manager", command: "op read op://dev/reduck/key | <%= config.bin %> login" },
  ];

  public async run() {
    if (this.flags["api-key"]) throw usageError("login reads the key from standard input, not --api-key: run `reduck login` and paste it");
    const apiKey = (process.stdin.isTTY ? await askHidden("API key: ") : await readAll(process.stdin)).trim();
    if (!apiKey) throw usageError("no API key was given: paste one at the prompt, or pipe it in");
    const apiUrl = this.apiUrl();
    const client = createReduckClient({ apiKey, baseUrl: apiUrl });
    const { data: me, error } = await getMe({ client });
    if (error) {
      if (error.status === 401) throw new CliError(`the API refused that key: ${error.error}`, ExitCode.AUTH);
      throw fromReduckError(error, "checking the key");
    }
    const file = await storeKey(apiUrl, apiKey);
    this.note(`Signed in to ${apiUrl} as ${me.handle ?? me.email}. Key stored in ${file}.`);
    return { apiUrl, handle: me.handle, email: me.email, file };
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

function askHidden(prompt: string): Promise<string> {
  process.stderr.write(prompt);
  let muted = true;
  const output = new Writable({
    write(chunk, _enc, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question("", (answer) => {
      muted = false;
      rl.close();
      process.stderr.write("\n");
      resolve(answer);
    });
    rl.on("SIGINT", () => {
      rl.close();
      process.stderr.write("\n");
      process.exit(ExitCode.INTERRUPTED);
    });
  });
}
