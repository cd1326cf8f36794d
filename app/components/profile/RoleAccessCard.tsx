import { Badge, Card, Table, Title } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { resourceTypeLabelKey } from "../../common/resources/labels";
import type { roleRows } from "../../utils/role-rows";

export interface RoleView {
  name: string;
  isSystemDefined: boolean;
  rows: ReturnType<typeof roleRows>;
}

/** What the user's role may do, resource by resource. */
export function RoleAccessCard({ role }: { role: RoleView | null }) {
  const { t } = useTranslation();
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t("profile.roleDetails")}: {role?.name} {role?.isSystemDefined ? <Badge variant="light">{t("profile.systemDefined")}</Badge> : null}
      </Title>
      <Table striped data-testid="role-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t("profile.resource")}</Table.Th>
            <Table.Th>{t("profile.access")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(role?.rows ?? []).map((row) => (
            <Table.Tr key={row.resource}>
              <Table.Td>{t(resourceTypeLabelKey(row.resource))}</Table.Td>
              <Table.Td>{t(`access.${row.access}`)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
