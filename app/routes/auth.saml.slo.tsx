import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { samlLogout } from "../utils/sso.server";

// Single logout, by redirect (GET) or by post.
export const loader = ({ request }: LoaderFunctionArgs) => samlLogout(request);

export const action = async ({ request }: ActionFunctionArgs) => samlLogout(request, await request.formData());
