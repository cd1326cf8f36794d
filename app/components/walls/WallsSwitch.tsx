import { Badge, Button, Card, Checkbox, Group, Stack, Text } from "../../utils/mantine";
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export interface InternalWalls {
  enabled: boolean;
  state: string;
}

const STATE_COLOURS: Record<string, string> = { applied: "green", applying: "yellow", unapplied: "gray" };

/** Whether the firm's walls hold, where their recomputation stands, and the switch (a plain form). */
export function WallsSwitch({ walls, canEdit }: { walls: InternalWalls; canEdit: boolean }) {
  const { t } = useTranslation("walls");
  const busy = useNavigation().state !== "idle";
  return (
    <Card withBorder data-testid="walls-switch">
      <Form method="post">
        <input type="hidden" name="intent" value="walls" />
        <Stack gap="xs">
          <Group gap="sm">
            <Text fw={600}>{t("state.label")}</Text>
            <Badge color={STATE_COLOURS[walls.state] ?? "gray"} data-testid="walls-state">
              {t(`state.${walls.state}`, { defaultValue: walls.state })}
            </Badge>
          </Group>
          <Text size="sm">{t("intro")}</Text>
          <Group>
            <Checkbox name="enabled" value="on" defaultChecked={walls.enabled} label={t("enforce")} disabled={!canEdit} />
            {canEdit ? (
              <Button type="submit" size="xs" variant="light" loading={busy}>
                {t("save")}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Form>
    </Card>
  );
}
