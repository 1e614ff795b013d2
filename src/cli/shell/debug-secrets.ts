/**
 * `DEBUG=*` turns on oclif's debug lines, which print the whole command line: `--api-key`
 * values and `flock secrets set NAME=VALUE` values among it. Every debug line goes through one
 * function of the `debug` package; the CLI wraps it, so what the command line holds secretly
 * leaves as `[redacted]`, and so does anything shaped like a key or a token (core/redact.ts).
 */
import { REDACTED, redactSecrets } from "../../core/redact.js";

/**
 * The words of `argv` that hold a secret: the value of `--api-key` (either form), and each
 * `NAME=VALUE` given to `flock secrets set` (or `secrets:set`).
 *
 * @example
 * secretWords(["whoami", "--api-key", "rk_live_1"]);              // ["rk_live_1"]
 * secretWords(["flock", "secrets", "set", "TOKEN=abc", "--yes"]); // ["TOKEN=abc"]
 */
export function secretWords(argv: readonly string[]): string[] {
  const found: string[] = [];
  const end = argv.indexOf("--");
  const words = end < 0 ? argv : argv.slice(0, end);
  words.forEach((word, i) => {
    if (word === "--api-key" && words[i + 1] !== undefined) found.push(words[i + 1]!);
    else if (word.startsWith("--api-key=")) found.push(word);
  });
  const command = words.filter((w) => !w.startsWith("-")).flatMap((w) => w.split(":"));
  if (command[0] === "flock" && command[1] === "secrets" && command[2] === "set") {
    found.push(...words.filter((w) => !w.startsWith("-") && /^[^=]+=/.test(w)));
  }
  return found.filter(Boolean);
}

/** The word with its secret part replaced: `NAME=[redacted]`, `--api-key=[redacted]`, or `[redacted]`. */
const hidden = (word: string) => (word.includes("=") ? `${word.slice(0, word.indexOf("=") + 1)}${REDACTED}` : REDACTED);

/**
 * From now on, debug lines show none of the secrets `argv` and `env` hold. Without DEBUG it does
 * nothing, and the `debug` package stays unloaded (as oclif leaves it: build/oclif-patches.ts).
 *
 * @example
 * await hideSecretsFromDebug(process.argv.slice(2));
 */
export async function hideSecretsFromDebug(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!env.DEBUG) return;
  const { default: debug } = await import("debug");
  const words = secretWords(argv);
  const known = [...words, ...(env.REDUCK_API_KEY ? [env.REDUCK_API_KEY] : [])];
  // Longest first, so a word is never half-replaced by a shorter one inside it.
  const inText = [...new Set(words)].sort((a, b) => b.length - a.length);
  const scrub = (value: unknown, depth = 0): unknown => {
    if (typeof value === "string") {
      // A word of the command line, alone: hidden whatever its length.
      if (words.includes(value)) return hidden(value);
      let text = value;
      for (const word of inText) if (word.includes("=") || word.length >= 8) text = text.split(word).join(hidden(word));
      return redactSecrets(text, known);
    }
    if (depth > 4 || typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, depth + 1)]));
  };
  const write = debug.log;
  debug.log = function (this: unknown, ...args: unknown[]) {
    return write.apply(
      this,
      args.map((a) => scrub(a)),
    );
  };
}
