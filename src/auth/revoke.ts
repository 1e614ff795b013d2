/** Revoking a sign-in at its authorization server (RFC 7009), for `reduck logout`. */
import * as oauth from "oauth4webapi";
import { discoverAuthorizationServer } from "./discovery.js";
import { authFailure, requestOptions, type AuthFetch } from "./requests.js";
import { publicClient } from "./tokens.js";
import type { OAuthSignIn } from "./types.js";

/**
 * Revokes the refresh token (which ends the grant and its access tokens), or the access tokens
 * when there is none. Says whether the server offers revocation at all; throws an AuthError when
 * it could not be reached or refused.
 */
export async function revokeSignIn(signIn: OAuthSignIn, fetch?: AuthFetch): Promise<"revoked" | "not offered"> {
  const as = await discoverAuthorizationServer(signIn.issuer, fetch);
  if (!as.revocation_endpoint) return "not offered";
  const client = publicClient(signIn.clientId);
  const tokens: Array<[string, string]> = signIn.refreshToken
    ? [[signIn.refreshToken, "refresh_token"]]
    : Object.values(signIn.tokens).map((t) => [t.accessToken, "access_token"]);
  try {
    for (const [token, hint] of tokens) {
      const response = await oauth.revocationRequest(as, client, oauth.None(), token, {
        additionalParameters: { token_type_hint: hint },
        ...requestOptions(as.revocation_endpoint, fetch),
      });
      await oauth.processRevocationResponse(response);
    }
  } catch (err) {
    throw authFailure(err, "revoking your sign-in", as.issuer);
  }
  return "revoked";
}
