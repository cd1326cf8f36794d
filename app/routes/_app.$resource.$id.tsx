import { Anchor, Button, Card, Group, Stack, Text } from "../utils/mantine";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DeleteRecord } from "../components/fields/DeleteRecord";
import { EditRecordForm } from "../components/fields/EditRecordForm";
import { ConnectionTest } from "../components/fields/ConnectionTest";
import { VendorConnection } from "../components/fields/VendorConnection";
import { RecordDetails } from "../components/fields/RecordDetails";
import { RecordSections } from "../components/record-sections/RecordSections";
import { recordPageAction, recordPageData } from "../components/fields/record-page.server";
import { findResource } from "../common/resources";
import { verifiedAgainst } from "../common/resources/vendor-contracts";

export function loader({ request, params }: LoaderFunctionArgs) {
  return recordPageData(request, params.resource, params.id);
}

export function action({ request, params }: ActionFunctionArgs) {
  return recordPageAction(request, params.resource, params.id);
}

export default function RecordPage() {
  const { resourceKey, record, titles, canWrite, editing, pickers, sections, title, authorization } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const { t } = useTranslation();
  const def = findResource(resourceKey)!;
  const path = `/${def.key}/${encodeURIComponent(String(record.id))}`;
  const edit = posted && "edit" in posted ? posted.edit : undefined;

  return (
    <Stack maw={900}>
      <Group justify="space-between">
        <Anchor component={Link} to={`/${def.key}`} size="sm">
          {t("wizard:backToList", { resource: def.key })}
        </Anchor>
        {canWrite && !editing ? (
          <Group gap="sm">
            <Button component={Link} to={def.editPath?.(String(record.id)) ?? `${path}?edit`} variant="default">
              {t("wizard:edit")}
            </Button>
            <DeleteRecord confirming={false} title={title} action={path} />
          </Group>
        ) : null}
      </Group>
      {posted && "confirmDelete" in posted ? <DeleteRecord confirming title={title} action={path} /> : null}
      <Card withBorder>
        {editing ? (
          <EditRecordForm def={def} record={record} result={edit?.result} pickers={edit?.pickers ?? pickers} action={`${path}?edit`} cancelTo={path} />
        ) : (
          <RecordDetails def={def} record={record} titles={titles} />
        )}
      </Card>
      {canWrite && !editing && def.authorization && authorization?.required !== false ? (
        <VendorConnection system={def.authorization.system} credentialId={String(record.id)} status={authorization} />
      ) : null}
      {canWrite && !editing && def.testConnection ? (
        <ConnectionTest action={path} report={posted && "connection" in posted ? posted.connection : undefined} verifiedAgainst={verifiedAgainst(def.key)} />
      ) : null}
      {!editing && def.sections ? <RecordSections recordId={String(record.id)} order={def.sections} loaded={sections} /> : null}
      {!canWrite ? (
        <Text size="sm" c="dimmed" data-testid="read-only">
          {t("wizard:readOnly")}
        </Text>
      ) : null}
    </Stack>
  );
}

export { PageError as ErrorBoundary } from "../components/PageError";
