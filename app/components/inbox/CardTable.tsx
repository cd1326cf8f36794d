import { Anchor, Table, Text } from "../../utils/mantine";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The inbox card's small lists (documents, filed copies, mail): one row per entry, or a line saying there is none. */
// A row's id is left out with the rest of it when the role may not read the rows' type.
export function CardTable<T extends { id?: string }>({ rows, empty, cells }: { rows: T[]; empty: string; cells: (row: T) => ReactNode[] }) {
  if (rows.length === 0) return <Text size="sm">{empty}</Text>;
  return (
    <Table>
      <Table.Tbody>
        {rows.map((row, index) => (
          <Table.Tr key={row.id ?? index}>
            {cells(row).map((cell, i) => (
              <Table.Td key={i}>{cell}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Opens a stored file in a new tab. */
export function OpenLink({ href }: { href: string }) {
  const { t } = useTranslation("inbox");
  return (
    <Anchor href={href} target="_blank" rel="noopener">
      {t("card.open")}
    </Anchor>
  );
}
