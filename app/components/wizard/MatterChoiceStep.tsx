import { Box, Fieldset, Group, Radio, Stack } from "../../utils/mantine";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { clients } from "../../common/resources/clients";
import { matters } from "../../common/resources/matters";
import type { FieldDef, ResourceDef } from "../../common/resources/types";
import { useHydrated } from "../../utils/use-hydrated";
import { FieldInput, type InputState, asText } from "../fields/FieldInput";
import type { PickerData } from "../fields/reference-sources";
import type { ChoiceMode } from "./matter-choice";

const fieldOf = (def: ResourceDef, name: string): FieldDef => def.fields.find((f) => f.name === name)!;

function ModeChoice(props: { name: string; label: string; value: string; onChange: (v: ChoiceMode) => void; existing: string; created: string }) {
  return (
    <Radio.Group name={props.name} label={props.label} value={props.value} onChange={(v) => props.onChange(v as ChoiceMode)}>
      <Group mt="xs">
        <Radio value="existing" label={props.existing} />
        <Radio value="new" label={props.created} />
      </Group>
    </Radio.Group>
  );
}

/**
 * The case wizard's matter step: an existing matter, or a new one made here, whose client is
 * existing or new. Without JavaScript every part is on screen and the radio buttons decide;
 * with it, only the chosen parts show.
 */
export function MatterChoiceStep({ def, fields, pickers }: { def: ResourceDef; fields: Record<string, InputState>; pickers: Record<string, PickerData> }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [matterMode, setMatterMode] = useState<string>(asText(fields.matter_mode!.initialValue) ?? "existing");
  const [clientMode, setClientMode] = useState<string>(asText(fields.client_mode!.initialValue) ?? "existing");
  const shown = (visible: boolean) => (hydrated && !visible ? { display: "none" } : undefined);

  return (
    <Stack>
      <ModeChoice
        name="matter_mode"
        label={t("wizard:matterChoice.matterMode")}
        value={matterMode}
        onChange={setMatterMode}
        existing={t("wizard:matterChoice.existingMatter")}
        created={t("wizard:matterChoice.newMatter")}
      />
      <Box style={shown(matterMode === "existing")}>
        <FieldInput resourceKey={def.key} field={fieldOf(def, "matter_id")} input={fields.matter_id!} picker={pickers.matter_id} />
      </Box>
      <Fieldset legend={t("wizard:matterChoice.newMatterLegend")} style={shown(matterMode === "new")}>
        <Stack>
          <FieldInput resourceKey="matters" field={fieldOf(matters, "name")} input={fields.matter_name!} label={t("wizard:matterChoice.matterName")} />
          <FieldInput resourceKey="matters" field={fieldOf(matters, "unique_key")} input={fields.matter_unique_key!} />
          <ModeChoice
            name="client_mode"
            label={t("wizard:matterChoice.clientMode")}
            value={clientMode}
            onChange={setClientMode}
            existing={t("wizard:matterChoice.existingClient")}
            created={t("wizard:matterChoice.newClient")}
          />
          <Box style={shown(clientMode === "existing")}>
            <FieldInput resourceKey="matters" field={fieldOf(matters, "client_id")} input={fields.client_id!} picker={pickers.client_id} />
          </Box>
          <Fieldset legend={t("wizard:matterChoice.newClientLegend")} style={shown(clientMode === "new")}>
            <Stack>
              <FieldInput resourceKey="clients" field={fieldOf(clients, "name")} input={fields.client_name!} label={t("wizard:matterChoice.clientName")} />
              <FieldInput resourceKey="clients" field={fieldOf(clients, "unique_key")} input={fields.client_unique_key!} />
            </Stack>
          </Fieldset>
        </Stack>
      </Fieldset>
    </Stack>
  );
}
