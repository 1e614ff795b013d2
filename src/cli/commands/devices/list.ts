import { listDevices } from "../../../generated/operations.js";
import type { components } from "../../../generated/schema.js";
import { BaseCommand } from "../../shell/base.js";
import { yesNo } from "../../shell/list-flags.js";
import { list } from "../../shell/answer-check.js";
import { DEVICE } from "../../shell/answer-shapes.js";
import { renderTable, wideFlag, wideLayout } from "../../shell/output.js";

type Device = components["schemas"]["Device"];

export default class DevicesList extends BaseCommand<typeof DevicesList> {
  static override summary = "List your paired browsers";
  static override description =
    `FILE ACCESS: the browser may read local files ("Allow access to file URLs" is on for the extension), which named-file runs need. REACHABLE: the service can try to wake it; it does not mean the browser is running.

Pass an ID to \`reduck run --device ID\` to run on that browser.`;

  static override examples = [
    { description: "Your browsers", command: "<%= config.bin %> devices list" },
    { description: "As JSON", command: "<%= config.bin %> devices list --json" },
  ];

  static override flags = { ...wideFlag };

  public async run(): Promise<Device[]> {
    const client = await this.client();
    const devices = this.unwrap(await listDevices({ client }), "listing devices", list(DEVICE));
    if (this.jsonEnabled()) return devices;
    if (devices.length === 0) {
      this.note("No paired browsers: install the Reduck browser extension and pair it with your account.");
      return devices;
    }
    this.log(
      renderTable(
        devices,
        [
          { header: "id", get: (d) => d.id, keep: true },
          { header: "name", get: (d) => d.name },
          { header: "browser", get: (d) => d.browser },
          { header: "os", get: (d) => d.os },
          { header: "file access", get: (d) => yesNo(d.file_access), drop: 2 },
          { header: "reachable", get: (d) => yesNo(d.reachable), drop: 1 },
        ],
        this.flags.wide ? wideLayout() : undefined,
      ),
    );
    return devices;
  }
}
