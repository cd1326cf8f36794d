import { Stack, Text } from "../../utils/mantine";
import { useTranslation } from "react-i18next";
import type { InboxCard } from "../../common/inbox-card";

/** What the parser read from the notice: court, type, and per docket the entry it announces. */
export function ParsedNotice({ parsed }: { parsed: InboxCard["item"]["parsed"] }) {
  const { t } = useTranslation("inbox");
  if (!parsed) return <Text size="sm">{t("card.notParsed")}</Text>;
  if (!parsed.notice) return <Text size="sm">{t("card.notANotice", { reason: parsed.reason ?? parsed.kind })}</Text>;
  const notice = parsed.notice;
  return (
    <Stack gap="xs">
      <Text size="sm">
        <b>{t("card.court")}:</b> {notice.court_id ?? "?"} · <b>{t("card.noticeType")}:</b> {notice.notice_type}
      </Text>
      {notice.dockets.map((docket) => (
        <Stack key={docket.docket_number_full} gap={2}>
          <Text size="sm">
            <b>{t("card.docket")}:</b> {docket.docket_number_full} · <b>{t("card.caseName")}:</b> {docket.case_name}
          </Text>
          {docket.docket_entries.map((entry, i) => (
            <Text size="sm" key={i}>
              <b>{t("card.entry")}:</b> {entry.short_description} ({t("card.filed")} {entry.date_filed ?? "?"}
              {entry.filed_by ? `, ${t("card.filedBy")} ${entry.filed_by}` : ""}) — {entry.description}
            </Text>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
