// Who is calling. Mirrors the hosted service: an API key acts as its account with every right; an
// OAuth token must be issued for this API (audience https://reduck.ai) and carry the operation's scope.
import { API_AUDIENCE, MCP_AUDIENCE } from "./records.js";
import type { ReferenceStore } from "./store.js";
import { ApiError } from "./errors.js";

export type Caller =
  | { userId: string; via: "apiKey" }
  | { userId: string; via: "oauth"; scopes: readonly string[] };

export interface AuthRequirement {
  /** Bearer scope the operation needs (from openapi.json's `security`). */
  scope: string;
  /** The operation serves callers without credentials (a reduced view). */
  anonymous: boolean;
  /**
   * Token audiences accepted (default: this API's only). POST /run passes both: it is served by
   * the run host, which is also the MCP host, so a token issued for either resource may run scripts
   * as long as it carries `run:write`.
   */
  audiences?: readonly string[];
}

export const NOT_AUTHENTICATED = "Not authenticated: send an API key in X-API-Key or an OAuth bearer token";

/**
 * Identifies the caller of a request, or throws a 401/403 ApiError. Returns null for a request with
 * no credential at all when the operation allows anonymous callers. A credential that is present but
 * wrong is refused even there: silently downgrading it to anonymous would hide the mistake.
 *
 * @example
 * const caller = authenticate(request, store, { scope: "run:read", anonymous: false });
 */
export function authenticate(request: Request, store: ReferenceStore, requirement: AuthRequirement): Caller | null {
  const apiKey = request.headers.get("x-api-key");
  const authorization = request.headers.get("authorization");

  if (apiKey !== null) {
    const userId = store.userIdForApiKey(apiKey.trim());
    if (!userId) throw new ApiError(401, "Invalid API key");
    return { userId, via: "apiKey" };
  }

  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) {
      throw new ApiError(401, "Unsupported Authorization header: send `Authorization: Bearer <token>` or an API key in X-API-Key");
    }
    const token = store.tokenInfo(match[1]);
    if (!token) throw new ApiError(401, "Invalid or expired access token");
    const audiences = requirement.audiences ?? [API_AUDIENCE];
    if (audiences.includes(token.audience)) {
      if (!token.scopes.includes(requirement.scope)) {
        throw new ApiError(403, `This access token lacks the "${requirement.scope}" scope this operation needs: request a token that includes it`);
      }
      return { userId: token.userId, via: "oauth", scopes: token.scopes };
    }
    if (token.audience === MCP_AUDIENCE) {
      throw new ApiError(
        401,
        `This access token was issued for the Reduck MCP server (${MCP_AUDIENCE}), not this API: request a token with resource ${API_AUDIENCE}`,
      );
    }
    throw new ApiError(401, `This access token was issued for ${token.audience}, not this API: request a token with resource ${API_AUDIENCE}`);
  }

  if (requirement.anonymous) return null;
  throw new ApiError(401, NOT_AUTHENTICATED);
}
