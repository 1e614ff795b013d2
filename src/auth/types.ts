import type { ReduckError } from "../core/errors.js";

/** What an OAuth sign-in leaves in the config file, per API base URL. */

/** An access token for one resource. */
export interface StoredToken {
  /** The resource indicator (RFC 8707) it was issued for, as that server's metadata names itself. */
  resource: string;
  accessToken: string;
  /** ISO date; the token is refreshed when it expires within a minute. */
  expiresAt: string;
  scope?: string;
}

export interface OAuthSignIn {
  /** The authorization server (its issuer identifier). */
  issuer: string;
  clientId: string;
  refreshToken?: string;
  /** The scopes granted. */
  scope?: string;
  /** Who signed in, as the API named them at sign-in (`@demo`). */
  account?: string;
  /** One access token per base URL: the API's and, when it differs, the run host's. */
  tokens: Record<string, StoredToken>;
}

/** Why signing in or refreshing failed; the CLI picks its exit code from `reason`. */
export class AuthError extends Error {
  override name = "AuthError";
  constructor(
    message: string,
    /** `expired`: the server refused the stored sign-in; `unreachable`: no answer (see `code`); `refused`: anything else said no. */
    readonly reason: "expired" | "unreachable" | "refused",
    /** The system error code of an unreachable server (ECONNREFUSED...). */
    readonly code?: string,
    /** The failure to reach it, as the library's error value (its `code` says a proxy or a certificate was at fault). */
    readonly failure?: ReduckError,
  ) {
    super(message);
  }
}
