import { data, redirect } from "@remix-run/node";
import type { ResourceDef } from "../../common/resources/types";
import { requireUser } from "../../utils/auth.server";
import { redirectWithToast } from "../../utils/toast.server";
import { tableColumns } from "./columns";
import { TABLE_INTENTS } from "./intents";
import { tableLayoutSchema, withVisible } from "./layout";
import { readLayout, readWebPreferences, resetLayout, saveLayout, saveWebPreferences } from "./preferences.server";
import { readForm } from "../../utils/request-body.server";

/** Back to the list as it was: the same URL without the `index` marker of a form post. */
export function listUrl(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const search = url.searchParams.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

function parseJson(text: FormDataEntryValue | null): unknown {
  try {
    return JSON.parse(String(text ?? ""));
  } catch {
    return undefined;
  }
}

/**
 * The list page's posts: the layout the interactive table reports (answered with data, the page
 * stays), the "Columns" form and its reset (redirect back to the list), and the firm's striping
 * switch (data for the page's fetcher, a redirect when the form was posted without JavaScript).
 */
export async function tableAction(request: Request, def: ResourceDef) {
  const { me, api } = await requireUser(request, def.accessKey);
  const form = await readForm(request);
  const back = listUrl(request);
  const failed = () => redirectWithToast(request, back, { type: "error", key: "errors:settingsUpdate" });

  switch (form.get("intent")) {
    case TABLE_INTENTS.layout: {
      const layout = tableLayoutSchema.safeParse(parseJson(form.get("layout")));
      if (!layout.success) return data({ ok: false }, { status: 400 });
      const ok = await saveLayout(api, def.key, layout.data);
      return data({ ok }, { status: ok ? 200 : 502 });
    }
    case TABLE_INTENTS.columns: {
      const visible = form.getAll("visible").map(String);
      const layout = withVisible(
        await readLayout(api, def.key),
        tableColumns(def, () => true),
        visible,
      );
      if (!(await saveLayout(api, def.key, layout))) return failed();
      throw redirect(back);
    }
    case TABLE_INTENTS.resetLayout: {
      if (!(await resetLayout(api, def.key))) return failed();
      throw redirect(back);
    }
    case TABLE_INTENTS.striped: {
      const prefs = me.userRole.firmAccess === "FULL" ? await readWebPreferences(api) : null;
      const saved = prefs !== null && (await saveWebPreferences(api, { ...prefs, tableStriped: form.get("striped") === "on" }));
      if (!saved) return failed();
      if (form.get("back")) throw redirect(back);
      return data({ ok: true });
    }
    default:
      return data({ ok: false }, { status: 400 });
  }
}
