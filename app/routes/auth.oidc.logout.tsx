import type { LoaderFunctionArgs } from "@remix-run/node";
import { oidcSignedOut } from "../utils/sso.server";

// The OpenID Connect post-logout redirect URI: the issuer has signed the browser out and sends it back here.
export const loader = ({ request }: LoaderFunctionArgs) => oidcSignedOut(request);
