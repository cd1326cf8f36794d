import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { type ShouldRevalidateFunctionArgs, useLoaderData, useLocation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ListActions } from "../components/ListActions";
import { BulkForm } from "../components/inbox/BulkForm";
import { useBulkRun } from "../components/inbox/use-bulk-run";
import { ResourceTable } from "../components/table/ResourceTable";
import { TABLE_INTENTS } from "../components/table/intents";
import { listUrl, tableAction } from "../components/table/table-actions.server";
import { loadTable } from "../components/table/table-data.server";
import type { TableData, TableRow, TableSelection } from "../components/table/types";
import { REGISTRY } from "../common/resources";
import { resourceTitleKey } from "../common/resources/types";
import { requireUser } from "../utils/auth.server";
import { remixI18n } from "../utils/i18n.server";
import { runBulkForm } from "../utils/inbox-actions.server";
import { BULK_FIELDS, SCOPE } from "../utils/inbox-bulk";
import { redirectWithToast } from "../utils/toast.server";
import { readForm } from "../utils/request-body.server";

// The inbox list: the shared resource table with row selection and the bulk actions on top.

const def = REGISTRY["inbox-items"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const table = await loadTable(request, def, context);
  return data({ table, pageTitle: { key: resourceTitleKey(def.key) } });
}

export async function action({ request }: ActionFunctionArgs) {
  // The table's own posts (layout, columns, striping) carry an intent; the bulk form does not.
  if ((await readForm(request.clone())).has("intent")) return tableAction(request, def);
  const { api } = await requireUser(request, def.accessKey);
  const toast = await runBulkForm(api, await readForm(request), new URL(request.url), await remixI18n.getFixedT(request));
  return redirectWithToast(request, listUrl(request), toast);
}

// A saved column layout changes nothing the loader reads into the page.
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData?.get("intent") === TABLE_INTENTS.layout ? false : defaultShouldRevalidate;
}

interface Picked {
  /** The table query the selection was made on: another page or filter starts afresh. */
  search: string;
  ids: string[];
  matching: boolean;
}

export default function InboxList() {
  const { table } = useLoaderData<typeof loader>();
  const { t } = useTranslation("inbox");
  const { search } = useLocation();
  const { run, start } = useBulkRun();
  const [picked, setPicked] = useState<Picked>({ search, ids: [], matching: false });
  const current = picked.search === search ? picked : { search, ids: [], matching: false };
  // Drawn once the table has its rows: the ticked ids are those of the page's rows.
  const selectionOf = (whole: TableData): TableSelection => {
    const pageIds = whole.rows.map((r) => String(r.id));
    const selected = current.ids.filter((id) => pageIds.includes(id));
    const onStart = (action: Parameters<typeof start>[0]) => {
      void start(action, current.matching ? { matching: search } : { ids: selected }).then(() => setPicked({ search, ids: [], matching: false }));
    };
    return {
      selected,
      onChange: (ids) => setPicked({ ...current, ids }),
      allLabel: t("bulk.selectPage"),
      rowLabel: (row: TableRow) => t("bulk.selectRow", { title: String(row.subject || row.id) }),
      rowName: BULK_FIELDS.ids,
      allName: BULK_FIELDS.scope,
      allValue: SCOPE.page,
      form: (plain) => (
        <BulkForm
          total={table.total}
          pageIds={pageIds}
          selected={selected}
          matching={current.matching}
          onMatchingChange={(matching) => setPicked({ ...current, matching })}
          run={run}
          onStart={onStart}
        >
          {plain}
        </BulkForm>
      ),
    };
  };

  // Only for roles that may change inbox items; the API refuses the rest all the same.
  return (
    <ResourceTable table={table} actions={<ListActions def={def} fullAccess={table.fullAccess} />} selection={table.fullAccess ? selectionOf : undefined} />
  );
}
