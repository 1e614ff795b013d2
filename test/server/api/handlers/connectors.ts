// Connectors: cookies per (account, host) for managed browsers. Reads fall back to the nearest parent
// host's connector, writes check that every cookie belongs to the host.
import { ApiError, invalid } from "../errors.js";
import { cookieDomainBelongs, isHostname, normalizeHost, registrableDomain } from "../../contract/hostnames.js";
import { connectorView, connectorWithCookies } from "../views.js";
import { requireCaller } from "./shared.js";
import type { Implementations } from "./types.js";

export const connectorHandlers: Pick<Implementations, "listConnectors" | "getConnector" | "putConnector" | "deleteConnector"> = {
  listConnectors: ({ store, caller }) => {
    const { userId } = requireCaller(caller);
    const connectors = store.connectorsOf(userId).sort((a, b) => a.host.localeCompare(b.host));
    return { status: 200, body: connectors.map(connectorView) };
  },

  getConnector: ({ store, caller, path }) => {
    const { userId } = requireCaller(caller);
    const host = normalizeHost(path.host);
    const found = isHostname(host) ? store.connectorFor(userId, host) : undefined;
    if (!found) throw new ApiError(404, `No connector for ${host} or any parent host`);
    return { status: 200, body: connectorWithCookies(found) };
  },

  putConnector: ({ store, caller, path, body }) => {
    const { userId } = requireCaller(caller);
    const host = normalizeHost(path.host);
    if (!isHostname(host)) throw invalid({ host: ["must be a bare host name such as mail.google.com"] });
    const foreign: Record<string, string[]> = {};
    body.cookies.forEach((cookie, index) => {
      if (!cookieDomainBelongs(cookie.domain, host)) {
        foreign[`cookies.${index}.domain`] = [
          `cookie "${cookie.name}" has domain ${cookie.domain}, which does not belong to ${host} (use ${host}, a parent such as .${registrableDomain(host)}, or a sub-domain)`,
        ];
      }
    });
    if (Object.keys(foreign).length) throw invalid(foreign);
    const connector = store.putConnector(userId, host, body.cookies);
    return { status: 200, body: connectorView(connector) };
  },

  deleteConnector: ({ store, caller, path }) => {
    const { userId } = requireCaller(caller);
    const host = normalizeHost(path.host);
    if (!store.deleteConnector(userId, host)) throw new ApiError(404, `No connector for ${host}`);
    return { status: 204, body: undefined };
  },
};
