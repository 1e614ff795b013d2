/**
 * The values `reduck flock secrets:set` sets: where each comes from (`NAME=value`, `NAME=-` for
 * stdin, `--from-file NAME=PATH`) and the value read from there. A value is never shown, not even
 * in an error: an argument that cannot be read is named by its position.
 */
import { readFile } from "node:fs/promises";
import { expandHome } from "../../system/paths.js";
import { usageError } from "../shell/errors.js";
import { askHidden, readAll, TooMuchInput } from "../shell/hidden-input.js";

/** A secret's name, as the service takes it. */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const NAME_RULE = "a letter or '_' first, then letters, digits and '_', 64 at most";
/** The largest value read from stdin or a file: far beyond any token, short of a mistake. */
const VALUE_LIMIT = 64 * 1024;

/** Where one secret's value comes from. */
export type SecretSource = { kind: "argument"; value: string } | { kind: "stdin" } | { kind: "file"; file: string };

/**
 * Where each secret's value comes from, in the order given. A malformed argument is named by its
 * position, never shown: it may be a value.
 */
export function secretSources(tokens: string[], files: string[]): Map<string, SecretSource> {
  const sources = new Map<string, SecretSource>();
  const add = (name: string, source: SecretSource, where: string) => {
    if (sources.has(name)) throw usageError(`${where} sets ${name} a second time: give each secret once`);
    sources.set(name, source);
  };
  tokens.forEach((token, i) => {
    const where = `argument ${i + 1}`;
    const eq = token.indexOf("=");
    const shown = "(it is not shown: it may hold a secret)";
    if (eq <= 0) throw usageError(`${where} is not NAME=value ${shown}: write NAME=value, NAME=- to read the value from stdin, or --from-file NAME=PATH`);
    const name = token.slice(0, eq);
    if (!SECRET_NAME.test(name)) throw usageError(`${where} does not start with a secret name (${NAME_RULE}) ${shown}`);
    const value = token.slice(eq + 1);
    add(name, value === "-" ? { kind: "stdin" } : { kind: "argument", value }, where);
  });
  files.forEach((given, i) => {
    const where = `--from-file number ${i + 1}`;
    const eq = given.indexOf("=");
    const name = eq > 0 ? given.slice(0, eq) : "";
    if (!SECRET_NAME.test(name) || eq === given.length - 1) throw usageError(`${where} is not NAME=PATH: a secret name (${NAME_RULE}), "=", then the file`);
    add(name, { kind: "file", file: given.slice(eq + 1) }, where);
  });
  if (!sources.size) throw usageError("give at least one NAME=value (or NAME=-, or --from-file NAME=PATH)");
  if ([...sources.values()].filter((s) => s.kind === "stdin").length > 1) {
    throw usageError("only one secret can be read from stdin (NAME=-): give the others with --from-file NAME=PATH");
  }
  return sources;
}

/** A value from stdin or a file: without its final line ends (as "$(cat file)" gives it), never empty. */
export async function readSecretValue(name: string, source: SecretSource): Promise<string> {
  if (source.kind === "argument") return source.value;
  let text: string;
  if (source.kind === "stdin") {
    try {
      text = process.stdin.isTTY ? await askHidden(`Value of ${name} (not shown as you type): `) : await readAll(process.stdin, VALUE_LIMIT);
    } catch (err) {
      if (err instanceof TooMuchInput) throw usageError(`the value of ${name} on stdin is over ${VALUE_LIMIT / 1024} KiB: is it the right input?`);
      throw err;
    }
  } else {
    const file = expandHome(source.file);
    text = await readFile(file).then(
      (bytes) => {
        if (bytes.length > VALUE_LIMIT)
          throw usageError(`--from-file ${name}=${source.file}: the file is over ${VALUE_LIMIT / 1024} KiB: is it the right file?`);
        return bytes.toString("utf8");
      },
      (err: NodeJS.ErrnoException) => {
        throw usageError(`--from-file ${name}=${source.file}: cannot read it (${err.code ?? err.message})`);
      },
    );
  }
  const value = text.replace(/(\r?\n)+$/, "");
  if (!value) throw usageError(`the value of ${name} ${source.kind === "stdin" ? "on stdin" : `in ${source.file}`} is empty`);
  return value;
}
