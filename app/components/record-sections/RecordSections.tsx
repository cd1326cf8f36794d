import { Anchor, Card, Stack, Text } from "../../utils/mantine";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { REGISTRY } from "../../common/resources";
import { type RecordSection, recordPath } from "../../common/resources/types";
import { useFormatMoment } from "../../utils/dates";
import { CardSection } from "../inbox/CardSection";
import { CardTable, OpenLink } from "../inbox/CardTable";
import { PreviewPane } from "../templates/PreviewPane";
import { RetrievePanel } from "../case-tracking/RetrievePanel";
import { TrackingPanel } from "../case-tracking/TrackingPanel";
import type { LoadedSections, RelatedDocument, RelatedNotice } from "./types";
import { WebhookDeliveries } from "./WebhookDeliveries";

const noticePath = (id: string) => recordPath(REGISTRY["inbox-items"], id);

function Notices({ rows }: { rows: RelatedNotice[] }) {
  const { t } = useTranslation(["inbox", "resources"]);
  const formatDate = useFormatMoment();
  return (
    <CardTable
      rows={rows}
      empty={t("related.noNotices")}
      cells={(n) => [
        formatDate(n.created_at),
        <Anchor key="card" component={Link} to={noticePath(n.id)}>
          {n.subject || t("related.notice")}
        </Anchor>,
        t(`resources:inbox-items.options.status.${n.status}`, { defaultValue: n.status }),
      ]}
    />
  );
}

/** The documents, each with its notice and, once fetched, the link that opens it. */
function Documents({ rows, withEnvelope }: { rows: RelatedDocument[]; withEnvelope: boolean }) {
  const { t } = useTranslation("inbox");
  return (
    <CardTable
      rows={rows}
      empty={t("card.noDocuments")}
      cells={(d) => [
        `${d.name}${d.sealed ? ` · ${t("card.sealed")}` : ""}`,
        withEnvelope ? (
          <Anchor key="envelope" component={Link} to={recordPath(REGISTRY["ecfx-notification"], d.envelope_id)}>
            {d.envelope_name}
          </Anchor>
        ) : null,
        d.inbox_item_id ? (
          <Anchor key="notice" component={Link} to={noticePath(d.inbox_item_id)}>
            {t("related.notice")}
          </Anchor>
        ) : null,
        d.stored ? <OpenLink key="open" href={`/load-document/${encodeURIComponent(d.id)}`} /> : t("related.notFetched"),
      ]}
    />
  );
}

/** A list section: its rows, or a line saying the list could not be read. */
function ListSection<T>({ title, testId, rows, render }: { title: string; testId: string; rows: T[] | null | undefined; render: (rows: T[]) => JSX.Element }) {
  const { t } = useTranslation("inbox");
  return (
    <CardSection title={title} testId={testId}>
      {rows ? render(rows) : <Text size="sm">{t("related.unavailable")}</Text>}
    </CardSection>
  );
}

/** The sections an entity declares under its record, in its order. */
export function RecordSections({ recordId, order, loaded }: { recordId: string; order: RecordSection[]; loaded: LoadedSections }) {
  const { t } = useTranslation("inbox");
  const section = (name: RecordSection) => {
    switch (name) {
      case "caseNotices":
        return <ListSection title={t("related.notices")} testId="related-notices" rows={loaded.caseNotices} render={(rows) => <Notices rows={rows} />} />;
      case "caseDocuments":
      case "envelopeDocuments":
        return (
          <ListSection
            title={t("related.documents")}
            testId="related-documents"
            rows={loaded[name]}
            render={(rows) => <Documents rows={rows} withEnvelope={name === "caseDocuments"} />}
          />
        );
      case "webhookDeliveries":
        return loaded.webhookDeliveries ? (
          <CardSection title={t("resources:webhooks.deliveries.title")} testId="webhook-deliveries">
            <WebhookDeliveries webhookId={loaded.webhookDeliveries.webhookId} rows={loaded.webhookDeliveries.rows} />
          </CardSection>
        ) : null;
      case "caseTracking":
        return loaded.caseTracking ? <TrackingPanel caseId={recordId} tracking={loaded.caseTracking} /> : null;
      case "caseRetrieve":
        return loaded.caseRetrieve ? <RetrievePanel caseId={recordId} retrieve={loaded.caseRetrieve} /> : null;
      case "templatePreview":
        return loaded.templatePreview ? (
          <Card withBorder>
            <PreviewPane outcome={loaded.templatePreview} />
          </Card>
        ) : null;
    }
  };
  return (
    <Stack>
      {order
        .filter((name) => name in loaded)
        .map((name) => (
          <div key={name}>{section(name)}</div>
        ))}
    </Stack>
  );
}
