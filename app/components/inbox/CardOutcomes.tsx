import { Code, Text } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import { useFormatMoment } from "../../utils/dates";
import type { InboxCard } from "../../common/inbox-card";
import { CardSection } from "./CardSection";
import { CardTable, OpenLink } from "./CardTable";

/** What became of the notice: its documents, what was filed in the DMS, who was told, its envelopes. */
export function CardOutcomes({ card }: { card: InboxCard }) {
  const { t } = useTranslation("inbox");
  const formatDate = useFormatMoment();
  const withError = (status: string, error: string | null | undefined) => `${status}${error ? ` · ${error}` : ""}`;
  return (
    <>
      <CardSection title={t("card.documents")} testId="card-documents">
        <CardTable
          rows={card.documents}
          empty={t("card.noDocuments")}
          cells={(d) => [
            d.name,
            withError(
              `${t(`fetchStatus.${d.fetch_status}`)}${d.sealed ? ` · ${t("card.sealed")}` : ""}${
                d.title_extraction ? ` · ${t(`card.titleExtraction.${d.title_extraction}`)}` : ""
              }`,
              d.fetch_error ?? d.title_extraction_error,
            ),
            d.stored ? <OpenLink href={`/load-document/${d.id}`} /> : null,
          ]}
        />
      </CardSection>
      <CardSection title={t("card.dms", { status: t(`dmsStatus.${card.item.dms_status}`, { defaultValue: card.item.dms_status }) })} testId="card-dms">
        <CardTable
          rows={card.dms}
          empty={t("card.noDms")}
          cells={(r) => [
            r.what === "notice" ? t("card.notice") : r.document_name,
            withError(t(`dmsStatus.${r.status}`, { defaultValue: r.status }), r.error),
            <>
              <Code>{r.location ?? ""}</Code>
              {r.storage_policy_name ? ` (${r.storage_policy_name})` : ""}
            </>,
            r.status === "succeeded" ? <OpenLink href={`/load-dms/${r.id}`} /> : null,
          ]}
        />
      </CardSection>
      <CardSection title={t("card.mail")} testId="card-mail">
        <CardTable
          rows={card.mail}
          empty={t("card.noMail")}
          cells={(m) => [
            formatDate(m.created_at),
            m.to_addresses.join(", "),
            m.subject,
            withError(t(`mailStatus.${m.status}`, { defaultValue: m.status }), m.error),
          ]}
        />
      </CardSection>
      {card.envelopes.map((e) => (
        <CardSection key={e.id} title={`${t("card.envelope")}: ${e.name}`}>
          <Text size="sm">
            <b>{t("card.filedBy")}:</b> {e.filed_by} · <b>{t("card.filed")}:</b> {e.date}
          </Text>
          <Text size="sm" mt="xs">
            <b>{t("card.docketText")}:</b> {e.docket_text}
          </Text>
        </CardSection>
      ))}
    </>
  );
}
