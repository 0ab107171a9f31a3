import { createContext as createReactContext } from "react";
import { createContext } from "react-router";

/** The CSP nonce the Express server made for this response (like the app's request context). */
export const nonceContext = createContext<string>("");
export const NonceContext = createReactContext<string | undefined>(undefined);
