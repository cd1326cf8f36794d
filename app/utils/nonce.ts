import { createContext, useContext } from "react";

// The nonce of this response's Content-Security-Policy, for the inline scripts a page needs.
// Set only while rendering on the server; the browser hides nonces from scripts anyway.
export const NonceContext = createContext("");

export const useNonce = (): string => useContext(NonceContext);
