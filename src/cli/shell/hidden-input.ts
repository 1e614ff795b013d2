/**
 * Secrets a person gives the CLI without putting them on the command line (where `ps` and the
 * shell's history keep them): typed at a prompt that does not echo, or piped in on stdin.
 */
import { Writable } from "node:stream";
import { nodeReadline } from "../../core/builtins.js";
import { ExitCode } from "./exit-codes.js";

/**
 * Asks on the terminal without echoing what is typed; one line, without its line end.
 *
 * @example
 * const apiKey = await askHidden("API key: ");
 */
export function askHidden(prompt: string): Promise<string> {
  let muted = true;
  const output = new Writable({
    write(chunk, _enc, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  // The terminal leaves echoing to readline (raw mode) from here: only then is the prompt shown,
  // so nothing typed after it is echoed by the terminal itself.
  const rl = nodeReadline().createInterface({ input: process.stdin, output, terminal: true });
  process.stderr.write(prompt);
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

/** What a stream gave beyond `limit` bytes: not a secret someone meant to pipe in. */
export class TooMuchInput extends Error {
  override name = "TooMuchInput";
}

/**
 * Everything `stream` gives until it ends, as UTF-8; a `TooMuchInput` past `limit` bytes.
 *
 * @example
 * const token = await readAll(process.stdin);
 */
export async function readAll(stream: NodeJS.ReadableStream, limit = 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > limit) throw new TooMuchInput(`more than ${limit} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString("utf8");
}
