import { type ActionFunctionArgs, type LoaderFunctionArgs, data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Wizard } from "../components/wizard/Wizard";
import { wizardAction, wizardStart } from "../components/wizard/wizard.server";
import { findResource } from "../common/resources";
import type { ResourceDef } from "../common/resources/types";
import { requireUser } from "../utils/auth.server";
import { pageNotFound } from "../utils/not-found.server";

/** The entity of the URL, for a user whose role may add it; anyone else is sent on. */
async function adding(request: Request, key: string | undefined): Promise<{ def: ResourceDef } & Awaited<ReturnType<typeof requireUser>>> {
  const def = key ? findResource(key) : undefined;
  if (!def) return pageNotFound(request);
  const signedIn = await requireUser(request, def.accessKey);
  if (signedIn.me.userRole[def.accessKey] !== "FULL") throw redirect("/success");
  if (def.wizard.length === 0) throw redirect(`/${def.key}`);
  return { def, ...signedIn };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { def, api } = await adding(request, params.resource);
  const view = await wizardStart(api, def, new URL(request.url).searchParams);
  return data({ resourceKey: def.key, view, pageTitle: { key: "wizard:newTitle", values: { resource: def.key } } });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { def, api } = await adding(request, params.resource);
  const outcome = await wizardAction(request, api, def);
  if (outcome instanceof Response) return outcome;
  return data({ view: outcome });
}

export default function NewResource() {
  const { resourceKey, view } = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const def = findResource(resourceKey)!;
  return <Wizard key={resourceKey} def={def} view={posted?.view ?? view} />;
}

export { PageError as ErrorBoundary } from "../components/PageError";
