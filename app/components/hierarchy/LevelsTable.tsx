import { ActionIcon, Group, Table, Text } from "../../utils/mantine";
import { IconArrowDown, IconArrowUp } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import type { HierarchyLevel } from "../../common/resources/storage";

/** The levels in the order they are asked, each a hidden field of the form with buttons that move it. */
export function LevelsTable({ hierarchy, disabled }: { hierarchy: HierarchyLevel[]; disabled: boolean }) {
  const { t } = useTranslation();
  const label = (level: HierarchyLevel) => t(`storage:levels.${level}`);
  const last = hierarchy.length - 1;
  return (
    <Table striped data-testid="hierarchy-levels">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={48}>{t("storage:hierarchy.position")}</Table.Th>
          <Table.Th>{t("storage:hierarchy.level")}</Table.Th>
          <Table.Th w={110}>{t("storage:hierarchy.move")}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {hierarchy.map((level, index) => (
          <Table.Tr key={level} data-level={level}>
            <Table.Td>{index + 1}</Table.Td>
            <Table.Td>
              <input type="hidden" name="hierarchy" value={level} />
              {label(level)}
              {index === 0 || index === last ? (
                <Text span size="xs" c="dimmed" ml="xs">
                  ({t(index === 0 ? "storage:hierarchy.mostGeneral" : "storage:hierarchy.mostSpecific")})
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <MoveButton direction="up" level={level} label={t("storage:hierarchy.moveUp", { level: label(level) })} disabled={disabled || index === 0} />
                <MoveButton
                  direction="down"
                  level={level}
                  label={t("storage:hierarchy.moveDown", { level: label(level) })}
                  disabled={disabled || index === last}
                />
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function MoveButton({ direction, level, label, disabled }: { direction: "up" | "down"; level: HierarchyLevel; label: string; disabled: boolean }) {
  return (
    <ActionIcon type="submit" name="intent" value={`${direction}:${level}`} variant="default" disabled={disabled} aria-label={label}>
      {direction === "up" ? <IconArrowUp size={16} /> : <IconArrowDown size={16} />}
    </ActionIcon>
  );
}
