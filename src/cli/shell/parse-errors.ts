/**
 * oclif's parse errors, rewritten as sentences in the CLI's words: "Missing 1 required arg:
 * version_id ... See more help with --help" becomes "missing VERSION: the command is `reduck
 * scripts versions get ADDRESS VERSION`", and a mistyped flag gets a suggestion.
 */
import { closest } from "../../core/words/suggest.js";

/** What a rewrite needs to know about the command that failed to parse. */
export interface CommandShape {
  /** `scripts versions get` */
  id: string;
  /** Flag names, without dashes (base flags and --json included). */
  flags: string[];
  /** Positional argument names, in order, with whether each is required. */
  args: Array<{ name: string; required: boolean }>;
  bin: string;
}

function usage(shape: CommandShape): string {
  const args = shape.args.map((a) => (a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`));
  return [shape.bin, shape.id, ...args].join(" ");
}

function listOf(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function helpHint(shape: CommandShape): string {
  return `see \`${shape.bin} ${shape.id} --help\``;
}

/** The typed flag's closest real flag, as a hint. */
function flagHint(flag: string, shape: CommandShape): string {
  const name = flag.replace(/^-+/, "").split("=")[0]!;
  const best = closest(name, shape.flags);
  return best ? `did you mean --${best}?` : helpHint(shape);
}

type Rewrite = (match: RegExpMatchArray, shape: CommandShape, text: string) => string;

const REWRITES: Array<[RegExp, Rewrite]> = [
  [
    /^Nonexistent flags?: (.+)$/m,
    ([, list], shape) =>
      list!
        .split(", ")
        // The flag's name only: a value typed with it (--apikey=rk_...) may be a secret.
        .map((flag) => `unknown flag ${flag.split("=")[0]}: ${flagHint(flag, shape)}`)
        .join("; "),
  ],
  [
    /^Missing (\d+) required args?:\n([\s\S]*?)(?:\n\n|$)/,
    ([, , list], shape) => {
      // One argument per line; its description's wrapped lines are indented.
      const names = list!
        .split("\n")
        .filter((line) => /^\S/.test(line))
        .map((line) => line.split(/\s+/)[0]!.toUpperCase());
      return `missing ${listOf(names)}: the command is \`${usage(shape)}\``;
    },
  ],
  [/^Unexpected arguments?: (.+)$/m, ([, list], shape) => `unexpected argument${list!.includes(", ") ? "s" : ""} ${list}: the command is \`${usage(shape)}\``],
  [
    /^Expected --([\w-]+)=(.*) to be one of: (.+)$/m,
    ([, flag, given, options]) => `--${flag} must be ${listOf(options!.split(", ")).replace(/ and (\S+)$/, " or $1")} (you gave ${JSON.stringify(given)})`,
  ],
  [
    /^Parsing --([\w-]+)\s+Expected an integer (?:greater than or equal to (-?\d+) )?(?:less than or equal to (-?\d+) )?but received: (.*)$/m,
    ([, flag, min, max, given]) => {
      const range = min !== undefined ? ` of at least ${min}` : max !== undefined ? ` of at most ${max}` : "";
      return `--${flag} must be a whole number${range} (you gave ${JSON.stringify(given)})`;
    },
  ],
  [/^The following errors? occurred:/, (_, shape, text) => flagConstraints(text, shape)],
];

/** "Missing required flag x", "--a=true cannot also be provided when using --b" and the like. */
function flagConstraints(text: string, shape: CommandShape): string {
  const reasons = text
    .split("\n")
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("See more help"));
  const missing = reasons.map((r) => /^Missing required flag (\S+)$/.exec(r)?.[1]).filter((f): f is string => Boolean(f));
  const out: string[] = [];
  if (missing.length) out.push(`missing required flag${missing.length > 1 ? "s" : ""} ${listOf(missing.map((f) => `--${f}`))}: ${helpHint(shape)}`);
  const pairs = new Set<string>();
  for (const reason of reasons) {
    const clash = /^--([\w-]+)(?:=\S*)? cannot also be provided when using --([\w-]+)$/.exec(reason);
    if (clash) {
      const key = [clash[1], clash[2]].sort().join(" ");
      if (!pairs.has(key)) out.push(`--${clash[2]} and --${clash[1]} cannot be used together`);
      pairs.add(key);
    } else if (!/^Missing required flag/.test(reason)) {
      out.push(reason.replace(/^./, (c) => c.toLowerCase()));
    }
  }
  return out.join("; ");
}

/**
 * The sentence for one of oclif's parse errors, or undefined when the message is not one of
 * them.
 *
 * @example
 * rewriteParseError("Nonexistent flag: --hots\nSee more help with --help", shape);
 * // "unknown flag --hots: did you mean --host?"
 */
export function rewriteParseError(message: string, shape: CommandShape): string | undefined {
  // oclif colours some parts even without a terminal; the words are what matter here.
  // eslint-disable-next-line no-control-regex
  const text = message
    .replace(/\u001b\[[0-9;]*m/g, "")
    .replace(/\nSee more help with --help\s*$/, "")
    .trim();
  for (const [pattern, rewrite] of REWRITES) {
    const match = text.match(pattern);
    if (match) return rewrite(match, shape, text);
  }
  return undefined;
}
