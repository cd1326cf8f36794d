import type { LoaderFunctionArgs } from "@remix-run/node";
import { startSsoSignIn } from "../utils/sso.server";

// "Sign in with single sign-on": a plain link, so it works with JavaScript off too.
export const loader = ({ request }: LoaderFunctionArgs) => startSsoSignIn(request, "saml");
