/**
 * The bearer token of `reduck mcp --http`: the one thing between a web page the user opens and
 * the tools, so a random one each start unless the user gives one that is as hard to guess.
 * Apart from http.ts so the CLI checks REDUCK_MCP_TOKEN without loading the server.
 */
import { randomBytes } from "node:crypto";

/** A token given by the user is at least this long. */
export const MIN_TOKEN_LENGTH = 32;

/** A random token for this run of the server: 32 bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Why a token the user gave cannot be used, or undefined.
 *
 * @example
 * tokenProblem("short"); // "must be at least 32 characters (leave it unset for a random one)"
 */
export function tokenProblem(token: string): string | undefined {
  if (token.length < MIN_TOKEN_LENGTH) return `must be at least ${MIN_TOKEN_LENGTH} characters (leave it unset for a random one)`;
  if (!/^[\x21-\x7e]+$/.test(token)) return "must be printable ASCII without spaces, as an HTTP header carries it";
  return undefined;
}
