import { Anchor, Table, Text } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFormatMoment } from "../../utils/dates";
import type { InboxCard } from "../../common/inbox-card";
import { CardSection } from "./CardSection";

/** The items linked to this one (split parts, duplicates) and every step of its history. */
export function CardHistory({ card }: { card: InboxCard }) {
  const { t } = useTranslation("inbox");
  const { t: tr } = useTranslation("resources");
  const formatDate = useFormatMoment();
  const { item } = card;
  const relation = (l: InboxCard["linked"][number]) =>
    l.id === item.parent_id ? "card.parent" : l.id === item.duplicate_of_id ? "card.original" : l.duplicate_of_id === item.id ? "card.duplicate" : "card.child";
  return (
    <>
      <CardSection title={t("card.linked")} testId="card-linked">
        {card.linked.length === 0 ? (
          <Text size="sm">{t("card.noLinked")}</Text>
        ) : (
          card.linked.map((l) => (
            <Text size="sm" key={l.id}>
              {t(relation(l))}:{" "}
              <Anchor component={Link} to={`/inbox-items/id/${l.id}`}>
                {l.snippet || l.subject}
              </Anchor>{" "}
              ({tr(`inbox-items.options.status.${l.status}`)})
            </Text>
          ))
        )}
      </CardSection>
      <CardSection title={t("card.history")} testId="card-history">
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("card.time")}</Table.Th>
              <Table.Th>{t("card.event")}</Table.Th>
              <Table.Th>{t("card.detail")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {card.events.map((e, i) => (
              <Table.Tr key={i}>
                <Table.Td>{formatDate(e.created_at, "second")}</Table.Td>
                <Table.Td>{t(`events.${e.event}`, { defaultValue: e.event })}</Table.Td>
                <Table.Td>{e.detail}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardSection>
    </>
  );
}
