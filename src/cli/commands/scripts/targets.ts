import { listScriptTransferTargets } from "../../../generated/operations.js";
import type { components } from "../../../generated/schema.js";
import { TRANSFER_TARGETS } from "../../shell/answer-shapes.js";
import { formatAddress, addressArg } from "../../shell/address.js";
import { BaseCommand } from "../../shell/base.js";
import { yesNo } from "../../shell/list-flags.js";
import { renderTable, wideFlag, wideLayout } from "../../shell/output.js";
import { resolveAddress } from "../../scripts/own-handle.js";
import { unwrapScript } from "../../scripts/script-lookup.js";

type TransferTarget = components["schemas"]["TransferTarget"];

export default class ScriptsTargets extends BaseCommand<typeof ScriptsTargets> {
  static override summary = "List where a script can be transferred";
  static override description =
    "Your personal scope and the projects where you may create scripts, other than the script's current owner. CAN MOVE BACK says whether you could transfer it out of that scope again.";

  static override examples = [
    { description: "Where can this script go?", command: "<%= config.bin %> scripts targets example.com/get_title" },
    { description: "As JSON", command: "<%= config.bin %> scripts targets acme/crm.acme.test/export_contacts --json" },
  ];

  static override flags = { ...wideFlag };

  static override args = {
    address: addressArg(),
  };

  public async run(): Promise<TransferTarget[]> {
    const client = await this.client();
    const path = await resolveAddress(client, this.args.address);
    const address = formatAddress(path);
    const { targets } = await unwrapScript(
      client,
      await listScriptTransferTargets({ client, path }),
      path,
      `listing where ${address} can go`,
      TRANSFER_TARGETS,
    );
    if (this.jsonEnabled()) return targets;
    if (targets.length === 0) {
      this.note(`${address} has nowhere to go: you may create scripts in no other scope.`);
      return targets;
    }
    this.log(
      renderTable(
        targets,
        [
          { header: "handle", get: (t) => t.handle, keep: true },
          { header: "kind", get: (t) => t.kind },
          { header: "name", get: (t) => t.name },
          { header: "can move back", get: (t) => yesNo(t.can_transfer_out) },
        ],
        this.flags.wide ? wideLayout() : undefined,
      ),
    );
    this.note(`Move it with \`reduck scripts transfer ${address} --to HANDLE\`.`);
    return targets;
  }
}
