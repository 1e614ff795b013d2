// RFC 9728 protected-resource metadata for this server's two resources: the API (its origin) and
// the run host (`<origin>/mcp`, where POST /run is also served). Clients read it to learn which
// resource identifier to ask tokens for, and which authorization server issues them.
import { http, HttpResponse, type RequestHandler } from "msw";
import { resourcesOf, trustedIssuer } from "./auth.js";
import { ALL_SCOPES } from "../store/records.js";
import type { SandboxStore } from "../store/store.js";

/** Scopes a run-host token can use: POST /run needs run:write. */
const RUN_HOST_SCOPES = ["run:write", "run:read"];

function metadata(store: SandboxStore, resource: string, scopes: readonly string[], name: string) {
  const issuer = trustedIssuer(store);
  return HttpResponse.json({
    resource,
    ...(issuer ? { authorization_servers: [issuer] } : {}),
    scopes_supported: scopes,
    bearer_methods_supported: ["header"],
    resource_name: name,
  });
}

/**
 * @example
 * await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`); // { resource: "<origin>/mcp", authorization_servers: [...] }
 */
export function protectedResourceHandlers(store: SandboxStore): RequestHandler[] {
  const apiScopes = ALL_SCOPES.filter((s) => s !== "openid" && s !== "offline_access");
  return [
    http.get("*/.well-known/oauth-protected-resource", ({ request }) => metadata(store, resourcesOf(request).api, apiScopes, "Reduck API (sandbox)")),
    http.get("*/.well-known/oauth-protected-resource/mcp", ({ request }) =>
      metadata(store, resourcesOf(request).runHost, RUN_HOST_SCOPES, "Reduck run host (sandbox)"),
    ),
  ];
}
