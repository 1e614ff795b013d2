// The store's paired browsers (devices), connectors (cookies per host) and per-host readmes.
import { randomUUID } from "node:crypto";
import type { ConnectorRecord, Cookie, DeviceRecord, OwnerRef, ReadmeRecord } from "./records.js";
import { hostAndParents } from "../contract/hostnames.js";
import { ownerKey } from "./owners.js";
import { present } from "../contract/present.js";
import { RunsStore } from "./runs.js";

export abstract class DevicesStore extends RunsStore {
  addDevice(input: Partial<DeviceRecord> & { userId: string }): DeviceRecord {
    const device: DeviceRecord = {
      id: input.id ?? randomUUID(),
      userId: input.userId,
      name: input.name ?? "Google Chrome — macOS",
      browser: input.browser ?? "Google Chrome",
      os: input.os ?? "macOS",
      fileAccess: input.fileAccess ?? true,
      reachable: input.reachable ?? true,
      createdAt: input.createdAt ?? this.now(),
      concurrencyBudget: input.concurrencyBudget ?? 2,
    };
    this.devices.set(device.id, device);
    return device;
  }

  /**
   * Gives the demo account `count` paired extension browsers: 0 takes the seeded one away, 2 or
   * more add others beside it (for the refusals of `browser: "extension"`). Returns them.
   *
   * @example
   * store.setDemoDevices(2).map((d) => d.id); // [store.demo.deviceId, "<a new id>"]
   */
  setDemoDevices(count: number): DeviceRecord[] {
    const { userId, deviceId } = this.demo;
    for (const device of this.devicesOf(userId)) if (device.id !== deviceId || count === 0) this.devices.delete(device.id);
    if (count > 0 && !this.devices.has(deviceId)) {
      this.addDevice({ id: deviceId, userId, name: "Google Chrome — macOS", fileAccess: true, reachable: true });
    }
    const others: Array<[browser: string, os: string]> = [
      ["Firefox", "Windows"],
      ["Microsoft Edge", "Windows"],
      ["Arc", "macOS"],
    ];
    for (let i = 1; i < count; i++) {
      const [browser, os] = present(others[(i - 1) % others.length], "a demo browser (the index wraps)");
      this.addDevice({ userId, name: `${browser} — ${os}`, browser, os });
    }
    return this.devicesOf(userId);
  }

  devicesOf(userId: string): DeviceRecord[] {
    return [...this.devices.values()].filter((d) => d.userId === userId);
  }

  /**
   * Turns a paired browser's "Allow access to file URLs" on or off (null: unknown). Off, POST /run
   * refuses files named by `relativePath` on that browser.
   */
  setFileAccess(deviceId: string, fileAccess: boolean | null): DeviceRecord {
    const device = this.devices.get(deviceId);
    if (!device) throw new Error(`setFileAccess: unknown device ${deviceId}`);
    device.fileAccess = fileAccess;
    return device;
  }

  /**
   * The same for the demo account's one paired browser.
   *
   * @example
   * store.setDemoFileAccess(false); // named files now fail: "This paired browser can't read local files"
   */
  setDemoFileAccess(on: boolean): DeviceRecord {
    return this.setFileAccess(this.demo.deviceId, on);
  }

  /** Creates or overwrites the connector of a user for a (bare) host. */
  putConnector(userId: string, host: string, cookies: Cookie[], id?: string): ConnectorRecord {
    const key = `${userId} ${host}`;
    const existing = this.connectors.get(key);
    const now = this.now();
    const connector: ConnectorRecord = existing
      ? { ...existing, cookies, updatedAt: now }
      : { id: id ?? randomUUID(), userId, host, cookies, createdAt: now, updatedAt: now };
    this.connectors.set(key, connector);
    return connector;
  }

  /** The connector stored for exactly this host. */
  connector(userId: string, host: string): ConnectorRecord | undefined {
    return this.connectors.get(`${userId} ${host}`);
  }

  /**
   * The connector a managed run on `host` would use: the host's own, else the nearest parent's
   * (`inbox.mail.google.com` -> `mail.google.com` -> `google.com`). Host must be bare (normalizeHost).
   */
  connectorFor(userId: string, host: string): ConnectorRecord | undefined {
    return hostAndParents(host)
      .map((h) => this.connector(userId, h))
      .find((c) => c !== undefined);
  }

  deleteConnector(userId: string, host: string): boolean {
    return this.connectors.delete(`${userId} ${host}`);
  }

  connectorsOf(userId: string): ConnectorRecord[] {
    return [...this.connectors.values()].filter((c) => c.userId === userId);
  }

  readme(owner: OwnerRef, host: string): ReadmeRecord | undefined {
    return this.readmes.get(`${ownerKey(owner)} ${host}`);
  }

  setReadme(owner: OwnerRef, host: string, content: string): ReadmeRecord {
    const key = `${ownerKey(owner)} ${host}`;
    const existing = this.readmes.get(key);
    const now = this.now();
    const readme: ReadmeRecord = existing ? { ...existing, content, updatedAt: now } : { owner, host, content, createdAt: now, updatedAt: now };
    this.readmes.set(key, readme);
    return readme;
  }

  deleteReadme(owner: OwnerRef, host: string): void {
    this.readmes.delete(`${ownerKey(owner)} ${host}`);
  }
}
