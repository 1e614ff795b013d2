/**
 * Finding who issues tokens for a base URL, as RFC 9728 and RFC 8414 describe and MCP clients do:
 * the base URL's protected-resource metadata names its `resource` and `authorization_servers`;
 * the authorization server's own metadata says where to send the user and where to get tokens.
 */
import * as oauth from "oauth4webapi";
import { authFailure, checkSecure, requestOptions, type AuthFetch } from "./requests.js";
import { AuthError } from "./types.js";

export interface ProtectedResource {
  /** The base URL asked about. */
  baseUrl: string;
  /** Its resource identifier (what tokens are requested for), as its metadata says. */
  resource: string;
  authorizationServers: string[];
}

/** Reads `<base>/.well-known/oauth-protected-resource[/path]`, checking it describes that base URL. */
export async function discoverResource(baseUrl: string, fetch?: AuthFetch): Promise<ProtectedResource> {
  checkSecure(baseUrl, "the API");
  let metadata: oauth.ResourceServer;
  try {
    const response = await oauth.resourceDiscoveryRequest(new URL(baseUrl), requestOptions(baseUrl, fetch));
    if (response.status === 404) {
      throw new AuthError(
        `${baseUrl} does not offer OAuth sign-in (no /.well-known/oauth-protected-resource): sign in with an API key, \`reduck login --with-api-key\``,
        "refused",
      );
    }
    metadata = await oauth.processResourceDiscoveryResponse(new URL(baseUrl), response);
  } catch (err) {
    if (err instanceof oauth.OperationProcessingError && err.code === oauth.JSON_ATTRIBUTE_COMPARISON) {
      throw new AuthError(
        `${baseUrl}'s protected-resource metadata describes another resource (${(err.cause as { body?: { resource?: string } })?.body?.resource}): check --api-url and REDUCK_MCP_URL`,
        "refused",
      );
    }
    throw authFailure(err, "reading the sign-in details", baseUrl);
  }
  const servers = (metadata.authorization_servers ?? []).filter((s): s is string => typeof s === "string");
  if (!servers.length) {
    throw new AuthError(`${baseUrl} names no authorization server to sign in with: sign in with an API key, \`reduck login --with-api-key\``, "refused");
  }
  return { baseUrl, resource: metadata.resource, authorizationServers: servers };
}

/** Authorization-server metadata already read by this process, per issuer. */
const servers = new Map<string, Promise<oauth.AuthorizationServer>>();

/**
 * The authorization server's metadata: `/.well-known/oauth-authorization-server` (RFC 8414), or
 * `/.well-known/openid-configuration` when it only has that. Its `issuer` must be the one asked for.
 */
export function discoverAuthorizationServer(issuer: string, fetch?: AuthFetch): Promise<oauth.AuthorizationServer> {
  let found = servers.get(issuer);
  if (!found) {
    found = readServerMetadata(issuer, fetch);
    found.catch(() => servers.delete(issuer));
    servers.set(issuer, found);
  }
  return found;
}

async function readServerMetadata(issuer: string, fetch: AuthFetch | undefined): Promise<oauth.AuthorizationServer> {
  checkSecure(issuer, "the authorization server");
  const url = new URL(issuer);
  try {
    let response = await oauth.discoveryRequest(url, { algorithm: "oauth2", ...requestOptions(url, fetch) });
    if (response.status === 404) {
      await response.body?.cancel();
      response = await oauth.discoveryRequest(url, { algorithm: "oidc", ...requestOptions(url, fetch) });
    }
    return await oauth.processDiscoveryResponse(url, response);
  } catch (err) {
    if (err instanceof oauth.OperationProcessingError && err.code === oauth.JSON_ATTRIBUTE_COMPARISON) {
      throw new AuthError(`the authorization server at ${issuer} calls itself something else in its metadata: refusing to sign in with it`, "refused");
    }
    throw authFailure(err, "reading the authorization server's metadata", issuer);
  }
}
