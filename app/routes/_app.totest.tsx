import { type LoaderFunctionArgs, data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReleaseNotes } from "../components/release-notes/ReleaseNotes";
import { readReleaseNotes } from "../components/release-notes/changelog.server";
import { requireUser } from "../utils/auth.server";

// Release notes: what changed in this installation, from the CHANGELOG.md it ships.
export const handle = { titleKey: "pages.releaseNotes" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "firmAccess");
  return data({ releases: readReleaseNotes() });
}

export default function ReleaseNotesPage() {
  const { releases } = useLoaderData<typeof loader>();
  return <ReleaseNotes releases={releases} />;
}
