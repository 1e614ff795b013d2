// The caller's account: who they are, their projects, this period's usage, and their paired browsers.
import type { SandboxStore } from "../../store/store.js";
import { deviceView } from "../views.js";
import { requireCaller } from "./shared.js";
import type { Implementations } from "./types.js";

/** Plan limits of every seeded account (the service's free-plan figures are not published; these are ours). */
export const PLAN_LIMITS = { runs: 1000, browserMinutes: 600, proxyMb: 1024 };

function usageOf(store: SandboxStore, userId: string) {
  const runs = store.runsOf(userId);
  // Managed-browser minutes, each run rounded up to a whole minute, as billing meters do.
  const browserMinutes = runs
    .filter((r) => r.browser.type === "managed" && r.finishedAt)
    .reduce((sum, r) => sum + Math.ceil((Date.parse(r.finishedAt!) - Date.parse(r.startedAt)) / 60_000), 0);
  const now = new Date();
  const periodEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return {
    browser_minutes: { used: browserMinutes, limit: PLAN_LIMITS.browserMinutes },
    proxy_mb: { used: 0, limit: PLAN_LIMITS.proxyMb },
    runs: { used: runs.length, limit: PLAN_LIMITS.runs },
    period_end: periodEnd.toISOString(),
  };
}

export const accountHandlers: Pick<Implementations, "getMe" | "listDevices"> = {
  getMe: ({ store, caller }) => {
    const { userId } = requireCaller(caller);
    const user = store.users.get(userId)!;
    const projects = store.projectsOf(userId);
    const features = new Set(user.experimentalFeatures);
    return {
      status: 200,
      body: {
        id: user.id,
        name: user.name,
        email: user.email,
        handle: user.username ? "@" + user.username : null,
        role: user.role,
        projects: projects.map(({ project, role }) => ({ handle: project.handle, name: project.name, role })),
        experimental_features: [...features],
        usage: usageOf(store, userId),
      },
    };
  },

  listDevices: ({ store, caller }) => {
    const { userId } = requireCaller(caller);
    return { status: 200, body: store.devicesOf(userId).map(deviceView) };
  },
};
