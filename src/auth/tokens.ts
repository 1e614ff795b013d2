/** Token-endpoint requests shared by signing in and refreshing, and how a token is kept. */
import * as oauth from "oauth4webapi";
import { authFailure, requestOptions, type AuthFetch } from "./requests.js";
import type { StoredToken } from "./types.js";
import { AuthError } from "./types.js";

/** The CLI is a public client: PKCE stands in for a secret it could not keep. */
export function publicClient(clientId: string): oauth.Client {
  return { client_id: clientId, token_endpoint_auth_method: "none" };
}

/** Tokens whose lifetime the server did not state are taken to live this long. */
const DEFAULT_LIFETIME_S = 3600;

export function storedToken(resource: string, response: oauth.TokenEndpointResponse, now = Date.now()): StoredToken {
  const lifetime = typeof response.expires_in === "number" ? response.expires_in : DEFAULT_LIFETIME_S;
  return {
    resource,
    accessToken: response.access_token,
    expiresAt: new Date(now + lifetime * 1000).toISOString(),
    ...(response.scope ? { scope: response.scope } : {}),
  };
}

/**
 * Uses the refresh token for an access token for `resource` (RFC 8707 on the refresh grant). A
 * refused refresh token is an expired sign-in.
 */
export async function refreshGrant(
  as: oauth.AuthorizationServer,
  clientId: string,
  refreshToken: string,
  resource: string,
  fetch?: AuthFetch,
): Promise<oauth.TokenEndpointResponse> {
  const client = publicClient(clientId);
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, {
      additionalParameters: { resource },
      ...requestOptions(as.token_endpoint!, fetch),
    });
    return await oauth.processRefreshTokenResponse(as, client, response);
  } catch (err) {
    if (err instanceof oauth.ResponseBodyError && err.error === "invalid_target") {
      throw new AuthError(`your sign-in does not cover ${resource}: run \`reduck login\` again with the same --api-url and REDUCK_MCP_URL`, "expired");
    }
    const failure = authFailure(err, "refreshing your sign-in", as.issuer);
    if (failure.reason === "expired") throw new AuthError("your sign-in has expired: run `reduck login`", "expired");
    throw failure;
  }
}
